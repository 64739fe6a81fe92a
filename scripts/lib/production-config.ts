// What `npm run deploy` checks before any step: the production vars of
// wrangler.toml, as the deployed Workers will check them, and the same vars
// and D1 shards in wrangler.edge.toml (both Workers print BASE_URL in links,
// and both route a document to its shard by the number of shards bound).
import { unstable_readConfig } from "wrangler";
import { ConfigError, readBaseUrl } from "../../src/config";
import { PRODUCTION_ENVIRONMENT } from "./d1";
import { API_CONFIG, EDGE_CONFIG } from "./workers";

/** A Worker's config in production. */
const production = (config: string) =>
  unstable_readConfig(
    { config, env: PRODUCTION_ENVIRONMENT },
    { hideWarnings: true },
  );

/** The vars a Worker's config gives it in production. */
const productionVars = (config = API_CONFIG): Record<string, unknown> =>
  production(config).vars;

/** A D1 binding of a Worker's config, as wrangler reads it. */
interface D1Binding {
  binding: string;
  database_name?: string | undefined;
  database_id?: string | undefined;
}

/** The D1 bindings a Worker's config gives it in production. */
const productionDatabases = (config = API_CONFIG): D1Binding[] =>
  production(config).d1_databases;

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

/**
 * Throws a ConfigError unless the edge Worker binds the API Worker's
 * production D1 shards: the same bindings, database names and ids. With
 * another count it would look for documents in other shards than the API
 * Worker wrote them to (docs/scale.md "Adding shards").
 */
export function checkEdgeDatabases(
  databases = productionDatabases(),
  edgeDatabases = productionDatabases(EDGE_CONFIG),
): void {
  const byBinding = (bindings: D1Binding[]) =>
    new Map(
      bindings.map((d) => [d.binding, `${d.database_name}/${d.database_id}`]),
    );
  const api = byBinding(databases);
  const edge = byBinding(edgeDatabases);
  const differing = [...new Set([...api.keys(), ...edge.keys()])].filter(
    (binding) => api.get(binding) !== edge.get(binding),
  );
  if (differing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${EDGE_CONFIG}'s [env.${PRODUCTION_ENVIRONMENT}] d1_databases must be ${API_CONFIG}'s, the same bindings, database names and ids (differing: ${differing.join(", ")}).`,
    );
  }
}
