import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { QueryBudget } from "../../src/domain/cron-budget";
import { ORPHAN_AGE_MS } from "../../src/domain/documents/attempts";
import { settleCorrectionReservations } from "../../src/domain/documents/settle-correction-reservations";
import {
  newDocumentUuid,
  referenceBucket,
  shardOfBucket,
} from "../../src/domain/shard-routing";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createServices } from "../../src/services";
import { rowsOfAllShards, shards } from "../helpers/shards";

// A cron task whose share of the queries covers fewer shards than there are
// (the correction reservations' 50 queries at 64 shards) still reaches every
// shard over successive runs: each run starts its turn elsewhere.

const NOW = Date.UTC(2026, 10, 21, 9);
const FIVE_MINUTES = 5 * 60_000;
const scope = { organizationId: "org_turns", environment: "test" } as const;

/** A reference whose reservation lives in `shard`. */
function referenceIn(shard: number): string {
  for (let n = 0; ; n++) {
    const reference = `TURN-${shard}-${n}`;
    const bucket = referenceBucket(scope, reference);
    if (shardOfBucket(bucket, shards.length) === shard) return reference;
  }
}

describe("the cron's turns over the shards", () => {
  it("frees an abandoned correction reservation in every shard, each run's share reaching two shards only", async () => {
    for (const [shard, db] of shards.entries()) {
      // A correction's reservation whose attempt died long ago: no document holds it.
      await db
        .prepare(
          `INSERT INTO reference_reservations
             (organization_id, environment, reference, document_uuid, credential_id, created_at, rectifies_uuid)
           VALUES (?, ?, ?, ?, 'cred_turns', ?, ?)`,
        )
        .bind(
          scope.organizationId,
          scope.environment,
          referenceIn(shard),
          newDocumentUuid(shard, NOW),
          NOW - 2 * ORPHAN_AGE_MS,
          newDocumentUuid(shard, NOW - 2 * ORPHAN_AGE_MS),
        )
        .run();
    }
    const left = () =>
      rowsOfAllShards(
        "SELECT reference FROM reference_reservations WHERE organization_id = ?",
        scope.organizationId,
      );
    expect(await left()).toHaveLength(shards.length);

    // A round that finds one costs 6 queries, a shard found empty 1: a share
    // of 7 settles at most one reservation a run, within the first two shards.
    for (let run = 0; run < 6 * shards.length; run++) {
      const services = createServices(env, {
        clock: { now: () => NOW + run * FIVE_MINUTES },
        renderPdf: renderDocumentPdf,
      });
      await settleCorrectionReservations(services, new QueryBudget(7));
    }
    expect(await left()).toEqual([]);
  });
});
