import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { ORPHAN_AGE_MS } from "../../../src/domain/documents/attempts";
import {
  newDocumentUuid,
  reservationShard,
} from "../../../src/domain/shard-routing";
import {
  type DocumentResultBody,
  documentsApi,
  qrPath,
} from "../../helpers/documents-api";
import { d1Before } from "../../helpers/faults";
import {
  copyDocumentAhead,
  issueMoving,
  keyOnTwoShards,
  movingReference,
  rebalanceAll,
  twoShards,
  whileMoving,
} from "../../helpers/rebalance";
import { rowsOfAllShards, shards } from "../../helpers/shards";
import {
  type Call,
  callWithClock,
  fixedClock,
  HEAVY_TEST_MS,
} from "../../helpers/worker";

// Writes while a rebalance from two shards to four runs (docs/scale.md
// "Adding shards"): each keeps one row of each key across a row's two homes,
// and a conditional write is decided on the copy that holds the row, never
// on a stale copy the mover made ahead of its delete. Another request lands
// just before a write of the first is sent, as in races.test.ts.

const NOW = Date.now();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const clock = fixedClock(NOW);
const onTwoShards = callWithClock(clock, twoShards);
const moving = callWithClock(clock, whileMoving());
const afterwards = callWithClock(clock);

/** The service while the rebalance runs, with `hook` run just before the first D1 call matching `sql`. */
const racing = (sql: RegExp, hook: () => Promise<void>): Call =>
  callWithClock(clock, whileMoving(d1Before(sql, hook)));

const COMMIT_OF_DELETION = /update "documents" set "deleted_at"/;
const RECORD_OF_QR_ACCESS = /update "documents" set "first_qr_access_at"/;

const errorCode = async (response: Response) =>
  ((await response.json()) as { errors: { code: string }[] }).errors[0]?.code;

/** Every copy of a document's state in every shard. */
const copiesOf = (uuid: string) =>
  rowsOfAllShards<{
    deleted: number;
    accessed: number;
    rectified_by_uuid: string | null;
  }>(
    `SELECT deleted_at IS NOT NULL AS deleted, first_qr_access_at IS NOT NULL AS accessed,
            rectified_by_uuid FROM documents WHERE uuid = ?`,
    uuid,
  );

/** A key whose list moves, and one of its documents issued on two shards in a bucket that moves, already copied to its new shard by the mover (whose delete has not run yet). */
async function documentMidMove(organization: string) {
  const { key, organizationId } = await keyOnTwoShards(organization, true);
  const document = await issueMoving((body) =>
    documentsApi(onTwoShards, key).issue(body),
  );
  await copyDocumentAhead(document.uuid);
  return { key, organizationId, document };
}

/** A document's entries on its credential's list, in every shard. */
const listEntries = (uuid: string) =>
  rowsOfAllShards("SELECT uuid FROM document_summaries WHERE uuid = ?", uuid);

const status = async (request: Call, key: string, uuid: string) =>
  (
    (await (await documentsApi(request, key).status(uuid)).json()) as {
      status: string;
    }
  ).status;

describe("a correction's new reference while a rebalance runs", () => {
  it(
    "is refused when another document holds it in the reservation's former shard, which keeps it after the move",
    async () => {
      const { key, organizationId } = await keyOnTwoShards("Held reference");
      const reference = movingReference(organizationId, "HELD");
      const before = documentsApi(onTwoShards, key);
      const holder = await before.issue({ ...minimalRequest(), reference });
      const other = await before.issue(minimalRequest());

      const correction = await documentsApi(moving, key).rectify(other.uuid, {
        ...minimalRequest(),
        reference,
      });
      expect(correction.status).toBe(409);
      expect(await errorCode(correction)).toBe("REFERENCE_CONFLICT");

      await rebalanceAll();
      const after = documentsApi(afterwards, key);
      const byReference = await after.get(`ref/${reference}`);
      expect(byReference.status).toBe(200);
      expect(((await byReference.json()) as DocumentResultBody).uuid).toBe(
        holder.uuid,
      );
      const retry = await after.create({ ...minimalRequest(), reference });
      expect(retry.status).toBe(200);
      expect(((await retry.json()) as DocumentResultBody).uuid).toBe(
        holder.uuid,
      );
      expect(
        await rowsOfAllShards(
          "SELECT document_uuid FROM reference_reservations WHERE reference = ?",
          reference,
        ),
      ).toEqual([{ document_uuid: holder.uuid }]);
      expect(await copiesOf(other.uuid)).toEqual([
        { deleted: 0, accessed: 0, rectified_by_uuid: null },
      ]);
    },
    HEAVY_TEST_MS,
  );

  it(
    "is taken over by the retry of the correction whose attempt left it in the former shard",
    async () => {
      const { key, organizationId } = await keyOnTwoShards("Own reference");
      const reference = movingReference(organizationId, "OWN");
      const original = await documentsApi(onTwoShards, key).issue(
        minimalRequest(),
      );
      const body = { ...minimalRequest(), reference };
      // The first attempt reserves, then dies before its commit is sent.
      const dying = callWithClock(clock, {
        ...d1Before(/update "documents" set "rectified_by_uuid"/, () =>
          Promise.reject(new Error("the Worker died")),
        ),
        DB_2: undefined,
        DB_3: undefined,
      } as unknown as Env);
      expect(
        (await documentsApi(dying, key).rectify(original.uuid, body)).status,
      ).toBe(503);

      const retry = await documentsApi(moving, key).rectify(
        original.uuid,
        body,
      );
      expect(retry.status).toBe(200);
      const correction = (await retry.json()) as DocumentResultBody;

      await rebalanceAll();
      expect(
        await rowsOfAllShards(
          "SELECT document_uuid FROM reference_reservations WHERE reference = ?",
          reference,
        ),
      ).toEqual([{ document_uuid: correction.uuid }]);
      const after = documentsApi(afterwards, key);
      expect(
        (
          (await (await after.get(`ref/${reference}`)).json()) as {
            uuid: string;
          }
        ).uuid,
      ).toBe(correction.uuid);
      const other = await after.create({
        ...minimalRequest(),
        reference,
        observations: "Otro",
      });
      expect(other.status).toBe(409);
    },
    HEAVY_TEST_MS,
  );
});

describe("a create's reference while a rebalance runs", () => {
  it("frees an abandoned reservation where it is, in its former shard: one reservation of the reference", async () => {
    const { key, organizationId } = await keyOnTwoShards("Abandoned reference");
    const reference = movingReference(organizationId, "ABANDONED");
    const scope = { organizationId, environment: "test" } as const;
    // A correction's reservation whose attempt died long ago, left where
    // two shards put it.
    await reservationShard(shards.slice(0, 2), scope, reference)
      .prepare(
        `INSERT INTO reference_reservations
           (organization_id, environment, reference, document_uuid, credential_id, created_at, rectifies_uuid)
         VALUES (?, 'test', ?, ?, 'cred_dead', ?, ?)`,
      )
      .bind(
        organizationId,
        reference,
        newDocumentUuid(0, NOW),
        NOW - 2 * ORPHAN_AGE_MS,
        newDocumentUuid(0, NOW - 2 * ORPHAN_AGE_MS),
      )
      .run();

    const created = await documentsApi(moving, key).issue({
      ...minimalRequest(),
      reference,
    });
    expect(
      await rowsOfAllShards(
        "SELECT document_uuid FROM reference_reservations WHERE reference = ?",
        reference,
      ),
    ).toEqual([{ document_uuid: created.uuid }]);
  });
});

describe("a conditional write refused on the copy that holds the row", () => {
  it(
    "a deletion refused by a QR access on the former copy is not made on the mover's copy",
    async () => {
      const { key, document } = await documentMidMove("Accessed, then deleted");
      let access: Response | undefined;
      const deletion = await documentsApi(
        racing(COMMIT_OF_DELETION, async () => {
          access = await moving(qrPath(document.url));
        }),
        key,
      ).remove(document.uuid);
      expect(access?.status).toBe(200);
      expect(deletion.status).toBe(409);
      expect(await errorCode(deletion)).toBe("DOCUMENT_ALREADY_ACCESSED");

      // Listed again, in one home.
      expect(await listEntries(document.uuid)).toHaveLength(1);

      await rebalanceAll();
      expect(await copiesOf(document.uuid)).toEqual([
        { deleted: 0, accessed: 1, rectified_by_uuid: null },
      ]);
      expect(await status(afterwards, key, document.uuid)).toBe("active");
      expect((await afterwards(qrPath(document.url))).status).toBe(200);
    },
    HEAVY_TEST_MS,
  );

  it(
    "a QR access refused by a deletion on the former copy serves nothing",
    async () => {
      const { key, document } = await documentMidMove("Deleted, then scanned");
      let deletion: Response | undefined;
      const access = await racing(RECORD_OF_QR_ACCESS, async () => {
        deletion = await documentsApi(moving, key).remove(document.uuid);
      })(qrPath(document.url));
      expect(deletion?.status).toBe(204);
      expect(access.status).toBe(404);

      await rebalanceAll();
      expect(await copiesOf(document.uuid)).toEqual([
        { deleted: 1, accessed: 0, rectified_by_uuid: null },
      ]);
      expect(await status(afterwards, key, document.uuid)).toBe("deleted");
      expect((await afterwards(qrPath(document.url))).status).toBe(404);
    },
    HEAVY_TEST_MS,
  );

  it(
    "a deletion refused by a correction committed on the former copy is not made on the mover's copy",
    async () => {
      const { key, document } = await documentMidMove(
        "Corrected, then deleted",
      );
      let correction: Response | undefined;
      const deletion = await documentsApi(
        racing(COMMIT_OF_DELETION, async () => {
          correction = await documentsApi(moving, key).rectify(
            document.uuid,
            minimalRequest(),
          );
        }),
        key,
      ).remove(document.uuid);
      expect(correction?.status).toBe(200);
      expect(deletion.status).toBe(409);
      expect(await errorCode(deletion)).toBe("DOCUMENT_ALREADY_RECTIFIED");
      const { uuid } = (await (
        correction as Response
      ).json()) as DocumentResultBody;

      expect(await listEntries(document.uuid)).toHaveLength(1);

      await rebalanceAll();
      expect(await copiesOf(document.uuid)).toEqual([
        { deleted: 0, accessed: 0, rectified_by_uuid: uuid },
      ]);
      expect(await status(afterwards, key, document.uuid)).toBe("active");
    },
    HEAVY_TEST_MS,
  );
});

describe("a document's later QR accesses while a rebalance runs", () => {
  it(
    "are written at most once a minute on whichever copy holds the row, and the mover keeps the later last access",
    async () => {
      const scanClock = fixedClock(NOW);
      const { document } = await documentMidMove("Scanned again and again");
      const scan = async (bindings = whileMoving()) =>
        expect(
          (await callWithClock(scanClock, bindings)(qrPath(document.url)))
            .status,
        ).toBe(200);
      // Two scans at once: the second's batch reaches D1 just before the
      // first's, which its read found due.
      const twoAtOnce = () =>
        scan(whileMoving(d1Before(RECORD_OF_QR_ACCESS, () => scan())));

      // On the former copy, the mover's copy made ahead of its delete.
      await scan();
      await scan();
      scanClock.advance(MINUTE);
      await twoAtOnce();
      scanClock.advance(30 * SECOND);
      await scan();

      await rebalanceAll();
      // Gone from the former shard: the copy the mover merged decides.
      scanClock.advance(15 * SECOND);
      await scan();
      // Once it is done.
      await scan(env);
      scanClock.set(NOW + 2 * MINUTE);
      await twoAtOnce();

      expect(
        await rowsOfAllShards(
          "SELECT occurred_at FROM audit_events WHERE document_uuid = ? AND type = 'qr_accessed' ORDER BY occurred_at",
          document.uuid,
        ),
      ).toEqual(
        [NOW, NOW + MINUTE, NOW + 2 * MINUTE].map((at) => ({
          occurred_at: at,
        })),
      );
      expect(
        await rowsOfAllShards(
          "SELECT created_at, first_access FROM event_outbox WHERE document_uuid = ? AND type = 'document.accessed' ORDER BY created_at",
          document.uuid,
        ),
      ).toEqual([
        { created_at: NOW, first_access: 1 },
        { created_at: NOW + MINUTE, first_access: 0 },
        { created_at: NOW + 2 * MINUTE, first_access: 0 },
      ]);
      expect(
        await rowsOfAllShards(
          "SELECT first_qr_access_at, last_qr_access_at FROM documents WHERE uuid = ?",
          document.uuid,
        ),
      ).toEqual([
        { first_qr_access_at: NOW, last_qr_access_at: NOW + 2 * MINUTE },
      ]);
    },
    HEAVY_TEST_MS,
  );
});

describe("a correction's PDF note while a rebalance runs", () => {
  it("leaves no note in the former shard of an original the mover has moved", async () => {
    const { key } = await keyOnTwoShards("Moved original", true);
    const original = await issueMoving((body) =>
      documentsApi(onTwoShards, key).issue(body),
    );
    // Moved: the correction looks for the original in its former shard
    // first, noting its PDF there, then finds it in the new one.
    await rebalanceAll();
    const correction = await documentsApi(moving, key).rectify(
      original.uuid,
      minimalRequest(),
    );
    expect(correction.status).toBe(200);
    const { uuid } = (await correction.json()) as DocumentResultBody;
    expect(
      await rowsOfAllShards(
        "SELECT object_key FROM pending_pdf_objects WHERE object_key = ?",
        `documents/${uuid}.pdf`,
      ),
    ).toEqual([]);
  });
});
