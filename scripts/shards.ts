// `npm run shards -- upgrade|rebalance [--from S] [--url URL] [--persist-to DIR]`:
// the data steps of a shard change, run inside the Worker through the
// operations API (docs/operations.md). `upgrade` moves what a single
// database left in DB_0 to the shards it routes to (docs/scale.md
// "Migrating from one database"), a page a call until done; `npm start`
// runs it on the local state, `npm run deploy` on the deployment.
// `rebalance --from S`, once DB_S … are bound and deployed with
// SHARDS_BEFORE = S, starts the job that moves every row whose bucket now
// routes to another shard (docs/scale.md "Adding shards") and waits for it,
// printing its progress; the Worker refuses an S other than its
// SHARDS_BEFORE. Stopped, either is run again.
import { parseArgs } from "node:util";
import { OpsError } from "./lib/ops-client";
import { withOps } from "./lib/ops-target";

const USAGE = `usage: npm run shards -- upgrade [--url URL] [--persist-to DIR]
       npm run shards -- rebalance --from S [--url URL] [--persist-to DIR]
         (S: the deployment's SHARDS_BEFORE, the shard count before the new bindings)`;

const { values, positionals } = parseArgs({
  options: {
    from: { type: "string" },
    url: { type: "string" },
    "persist-to": { type: "string" },
  },
  allowPositionals: true,
});
const command = positionals.join(" ");
const from = Number(values.from);
if (
  !(command === "upgrade" && values.from === undefined) &&
  !(command === "rebalance" && Number.isInteger(from) && from >= 1)
) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const target = { url: values.url, persistTo: values["persist-to"] };
try {
  const moved = await withOps(target, (ops) =>
    command === "upgrade"
      ? ops.upgradeShards()
      : ops.rebalanceShards(from, (progress) =>
          process.stderr.write(
            `${JSON.stringify({ cursor: progress.cursor, moved: progress.moved, last_error: progress.last_error })}\n`,
          ),
        ),
  );
  console.log(JSON.stringify({ moved }));
} catch (error) {
  // A refusal of the Worker (a `from` other than its SHARDS_BEFORE) is said as it is.
  if (!(error instanceof OpsError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
}
