// The two Workers of the service (docs/scale.md "Placement"): their wrangler
// configs, in the order `npm run deploy` deploys them (docs/operations.md
// "Deploying"): the API Worker first, since the edge Worker binds it.

/** The API Worker: /api/v1, /ops/v1, the cron and the Durable Objects, placed beside the data. */
export const API_CONFIG = "wrangler.toml";

/** The edge Worker: the QR links and the pages, unplaced; the rest goes to the API Worker. */
export const EDGE_CONFIG = "wrangler.edge.toml";

export const WORKER_CONFIGS = [API_CONFIG, EDGE_CONFIG] as const;
