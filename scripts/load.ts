// `npm run load`: drives a fresh local service with concurrent clients, then
// verifies every document it answered for. Options: --creates (2000),
// --clients (16), --max-seconds (600). Exits 1 if anything was lost,
// duplicated, corrupted, answered 5xx or logged a secret, or if a shard
// received no document.
import { parseArgs } from "node:util";
import { loadFreshService } from "./lib/load-service";

const { values } = parseArgs({
  options: {
    creates: { type: "string", default: "2000" },
    clients: { type: "string", default: "16" },
    "max-seconds": { type: "string", default: "600" },
  },
});

const report = await loadFreshService({
  creates: Number(values.creates),
  clients: Number(values.clients),
  maxMs: Number(values["max-seconds"]) * 1000,
});
console.log(JSON.stringify(report, null, 2));
const failed =
  report.lostDocuments +
    report.duplicateReferences +
    report.serverErrors +
    report.wrongPdfs +
    report.secretsInLog >
    0 ||
  report.listTotal.expected !== report.listTotal.served ||
  report.documentsPerShard.includes(0);
process.exit(failed ? 1 : 0);
