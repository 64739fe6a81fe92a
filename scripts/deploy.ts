// `npm run deploy`: wrangler.toml's production environment, once its vars
// are checked as the Worker will check them (an https BASE_URL). wrangler
// does what it does well: every shard migrated (the migrations only add),
// the fallback fonts uploaded, the Worker deployed. Then the data steps run
// inside the new Worker through its operations API at BASE_URL (or --url),
// with the support secret from DECA_SUPPORT_SECRET (docs/operations.md): the
// rows of a former single database moved to their shards.
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { type DatabaseTarget, PRODUCTION_ENVIRONMENT } from "./lib/d1";
import { SUPPORT_SECRET_VARIABLE, withOps } from "./lib/ops-target";
import { productionBaseUrl } from "./lib/production-config";
import { migrateShards, targetShards } from "./lib/shards";
import { uploadFonts } from "./upload-fonts";

// Nothing is touched before the configuration would serve: a ConfigError ends here.
const baseUrl = productionBaseUrl();
const { values } = parseArgs({ options: { url: { type: "string" } } });
const url = values.url ?? baseUrl;
if (!process.env[SUPPORT_SECRET_VARIABLE]) {
  console.error(
    `usage: ${SUPPORT_SECRET_VARIABLE}=… npm run deploy [-- --url https://…]: the support secret of the deployment (its origin: BASE_URL, ${baseUrl})`,
  );
  process.exit(2);
}
const target: DatabaseTarget = { remote: true };

console.error(`Deploying for ${baseUrl}.`);
console.error(`Migrating ${targetShards(target).length} shards…`);
await migrateShards(target);
await uploadFonts(target);
const deployed = spawnSync(
  "wrangler",
  ["deploy", "--env", PRODUCTION_ENVIRONMENT],
  { stdio: "inherit" },
);
if (deployed.status !== 0) process.exit(deployed.status ?? 1);
// Rerun alone with `npm run shards -- upgrade --url …` if this stops.
console.error(
  "Moved to their shards:",
  await withOps({ url }, (ops) => ops.upgradeShards()),
);
