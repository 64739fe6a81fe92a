// What `npm run deploy` checks before any step: the production vars of
// wrangler.toml, as the deployed Worker will check them.
import { unstable_readConfig } from "wrangler";
import { ConfigError, readBaseUrl } from "../../src/config";
import { PRODUCTION_ENVIRONMENT } from "./d1";

/** The vars wrangler.toml gives the production Worker. */
const productionVars = (): Record<string, unknown> =>
  unstable_readConfig(
    { config: "wrangler.toml", env: PRODUCTION_ENVIRONMENT },
    { hideWarnings: true },
  ).vars;

/**
 * The origin production prints in every link and PDF; throws a ConfigError
 * (the Worker would answer 500 to every request) unless it is https.
 */
export function productionBaseUrl(vars = productionVars()): string {
  const baseUrl = readBaseUrl(vars);
  if (baseUrl === null) {
    throw new ConfigError(
      `Invalid configuration: [env.${PRODUCTION_ENVIRONMENT}.vars] must set DEPLOYMENT = "production" and BASE_URL to the service's https:// origin.`,
    );
  }
  return baseUrl;
}
