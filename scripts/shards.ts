// `npm run shards -- upgrade [--url URL] [--persist-to DIR]`: the data steps
// of a shard change, run inside the Worker through the operations API
// (docs/operations.md). `upgrade` moves what a single database left in DB_0
// to the shards it routes to (docs/scale.md "Migrating from one database"),
// a page a call until done; stopped, it is run again. `npm start` runs it
// on the local state, `npm run deploy` on the deployment.
import { parseArgs } from "node:util";
import { withOps } from "./lib/ops-target";

const USAGE = `usage: npm run shards -- upgrade [--url URL] [--persist-to DIR]`;

const { values, positionals } = parseArgs({
  options: {
    url: { type: "string" },
    "persist-to": { type: "string" },
  },
  allowPositionals: true,
});
if (positionals.join(" ") !== "upgrade") {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const moved = await withOps(
  { url: values.url, persistTo: values["persist-to"] },
  (ops) => ops.upgradeShards(),
);
console.log(JSON.stringify({ moved }));
