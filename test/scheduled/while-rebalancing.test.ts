import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DELETION_MARK_STALE_MS } from "../../src/domain/documents/finish-deletion";
import { runCron } from "../helpers/cron";
import { documentsApi } from "../helpers/documents-api";
import { d1Before } from "../helpers/faults";
import {
  issueMoving,
  keyOnTwoShards,
  twoShards,
  whileMoving,
} from "../helpers/rebalance";
import { rowsOfAllShards } from "../helpers/shards";
import { callWithClock, fixedClock } from "../helpers/worker";

// The cron while a rebalance from two shards to four runs (SHARDS_BEFORE
// set): a deletion's mark sits beside its document in the shard the
// document has not left yet, and the cron finds that document there.

const NOW = Date.UTC(2026, 10, 21, 9);
const CRON_AT = NOW + DELETION_MARK_STALE_MS;

afterEach(() => {
  vi.restoreAllMocks();
});

/** A key's document issued on two shards in a bucket that moves, and the key's documents API while the rebalance runs. */
async function documentNotMovedYet(organization: string) {
  const clock = fixedClock(NOW);
  const { key } = await keyOnTwoShards(organization);
  const document = await issueMoving((body) =>
    documentsApi(callWithClock(clock, twoShards), key).issue(body),
  );
  const moving = (bindings = whileMoving()) =>
    documentsApi(callWithClock(clock, bindings), key);
  const listed = async () =>
    (
      (await (await moving().list()).json()) as { data: { uuid: string }[] }
    ).data.map((entry) => entry.uuid);
  return { document, moving, listed };
}

const marks = (uuid: string) =>
  rowsOfAllShards(
    "SELECT document_uuid FROM pending_deletion_marks WHERE document_uuid = ?",
    uuid,
  );

describe("the cron while a rebalance runs", () => {
  it("lists again a document whose deletion did not commit, found in its former shard", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { document, moving, listed } =
      await documentNotMovedYet("Deletion undone");
    // The deletion's commit never reaches D1: its mark and the removed list
    // entry are left to the cron.
    const failing = whileMoving(
      d1Before(/^update "documents" set "deleted_at"/, () =>
        Promise.reject(new Error("the Worker died")),
      ),
    );
    expect((await moving(failing).remove(document.uuid)).status).toBe(503);
    expect(await listed()).not.toContain(document.uuid);

    await runCron(CRON_AT, whileMoving());
    expect(await listed()).toContain(document.uuid);
    expect(await marks(document.uuid)).toEqual([]);
  });

  it("writes 'deleted' into the PDF object of a deletion committed in the former shard", async () => {
    const { document, moving } = await documentNotMovedYet("Deletion done");
    expect((await moving().remove(document.uuid)).status).toBe(204);

    await runCron(CRON_AT, whileMoving());
    const stored = await env.PDFS.head(`documents/${document.uuid}.pdf`);
    expect(stored?.customMetadata?.deleted_at).toBe(String(NOW));
    expect(await marks(document.uuid)).toEqual([]);
  });
});
