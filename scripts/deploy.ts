// `npm run deploy`: the production environment of both Workers (wrangler.toml
// the API's, wrangler.edge.toml the edge's), once their vars are checked as
// the Workers will check them (an https BASE_URL, the same in both) and
// their D1 shards are found the same in both. The
// steps (scripts/lib/deploy-steps.ts): every shard migrated (the migrations
// only add), the fallback fonts uploaded, the API Worker then the edge Worker
// deployed, then the data steps inside the new API Worker through its
// operations API at BASE_URL (or --url), with the support secret from
// DECA_SUPPORT_SECRET (docs/operations.md).
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { PRODUCTION_ENVIRONMENT } from "./lib/d1";
import { deploySteps } from "./lib/deploy-steps";
import { SUPPORT_SECRET_VARIABLE } from "./lib/ops-target";
import {
  checkEdgeDatabases,
  checkEdgeVars,
  productionBaseUrl,
} from "./lib/production-config";
import { targetShards } from "./lib/shards";
import { WORKER_CONFIGS } from "./lib/workers";

// Nothing is touched before the configuration would serve: a ConfigError ends here.
const baseUrl = productionBaseUrl();
checkEdgeVars();
checkEdgeDatabases();
const { values } = parseArgs({ options: { url: { type: "string" } } });
const url = new URL(values.url ?? baseUrl).origin;
const secret = process.env[SUPPORT_SECRET_VARIABLE];
if (!secret) {
  console.error(
    `usage: ${SUPPORT_SECRET_VARIABLE}=… npm run deploy [-- --url https://…]: the support secret of the deployment (its origin: BASE_URL, ${baseUrl})`,
  );
  process.exit(2);
}

console.error(`Deploying for ${baseUrl}.`);
const databases = { remote: true };
const steps = deploySteps({
  databases,
  // The API Worker first: the edge Worker binds it and its Durable Objects,
  // and forwards to whichever version of it is deployed.
  switchWorker: async () => {
    for (const config of WORKER_CONFIGS) {
      const deployed = spawnSync(
        "wrangler",
        ["deploy", "--config", config, "--env", PRODUCTION_ENVIRONMENT],
        { stdio: "inherit" },
      );
      if (deployed.status !== 0) process.exit(deployed.status ?? 1);
    }
    return { url, secret };
  },
});
for (const step of steps) {
  console.error(
    step.name === "expand"
      ? `Migrating ${targetShards(databases).length} shards…`
      : `Step ${step.name}…`,
  );
  await step.run();
}
