// `npm run deploy`: wrangler.toml's production environment, in the order the
// upgrade from one database needs (docs/scale.md), once its vars are checked
// as the Worker will check them (an https BASE_URL): every shard migrated, the
// fallback fonts uploaded, the rows of the former single database moved to
// their shards, and only then the Worker that reads the shards deployed.
import { spawnSync } from "node:child_process";
import { type DatabaseTarget, PRODUCTION_ENVIRONMENT } from "./lib/d1";
import { productionBaseUrl } from "./lib/production-config";
import { migrateShards, targetShards } from "./lib/shards";
import { upgradeShards } from "./upgrade-shards";
import { uploadFonts } from "./upload-fonts";

const target: DatabaseTarget = { remote: true };

// Nothing is touched before the configuration would serve: a ConfigError ends here.
console.error(`Deploying for ${productionBaseUrl()}.`);

console.error(`Migrating ${targetShards(target).length} shards…`);
await migrateShards(target);
await uploadFonts(target);
// Last before the deploy: the Worker still running looks for credentials in
// DB_0, so keys whose credential moves answer 401 until the new one is live.
console.error("Moved to their shards:", await upgradeShards(target));
const deployed = spawnSync(
  "wrangler",
  ["deploy", "--env", PRODUCTION_ENVIRONMENT],
  { stdio: "inherit" },
);
process.exitCode = deployed.status ?? 1;
