// `npm run deploy`: wrangler.toml's production environment, once its vars
// are checked as the Worker will check them (an https BASE_URL). The steps
// (scripts/lib/deploy-steps.ts): every shard migrated (the migrations only
// add), the fallback fonts uploaded, the Worker deployed, then the data
// steps inside the new Worker through its operations API at BASE_URL (or
// --url), with the support secret from DECA_SUPPORT_SECRET
// (docs/operations.md).
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { PRODUCTION_ENVIRONMENT } from "./lib/d1";
import { deploySteps } from "./lib/deploy-steps";
import { SUPPORT_SECRET_VARIABLE } from "./lib/ops-target";
import { productionBaseUrl } from "./lib/production-config";
import { targetShards } from "./lib/shards";

// Nothing is touched before the configuration would serve: a ConfigError ends here.
const baseUrl = productionBaseUrl();
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
  switchWorker: async () => {
    const deployed = spawnSync(
      "wrangler",
      ["deploy", "--env", PRODUCTION_ENVIRONMENT],
      { stdio: "inherit" },
    );
    if (deployed.status !== 0) process.exit(deployed.status ?? 1);
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
