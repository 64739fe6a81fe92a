// What `npm run deploy` checks before any step: the production vars of
// wrangler.toml, as the deployed Workers will check them, and the same in
// wrangler.edge.toml (both Workers print BASE_URL in links).
import { unstable_readConfig } from "wrangler";
import { ConfigError, readBaseUrl } from "../../src/config";
import { PRODUCTION_ENVIRONMENT } from "./d1";
import { API_CONFIG, EDGE_CONFIG } from "./workers";

/** The vars a Worker's config gives it in production. */
const productionVars = (config = API_CONFIG): Record<string, unknown> =>
  unstable_readConfig(
    { config, env: PRODUCTION_ENVIRONMENT },
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

/** Throws a ConfigError unless the edge Worker's production vars are the API Worker's. */
export function checkEdgeVars(
  vars = productionVars(),
  edgeVars = productionVars(EDGE_CONFIG),
): void {
  const differing = Object.keys({ ...vars, ...edgeVars }).filter(
    (name) => vars[name] !== edgeVars[name],
  );
  if (differing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${EDGE_CONFIG}'s [env.${PRODUCTION_ENVIRONMENT}.vars] must be ${API_CONFIG}'s (differing: ${differing.join(", ")}).`,
    );
  }
}
