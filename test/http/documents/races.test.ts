import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { ORPHAN_AGE_MS } from "../../../src/domain/documents/attempts";
import { createCredential } from "../../helpers/credentials";
import { runCron } from "../../helpers/cron";
import { documentsApi, qrPath } from "../../helpers/documents-api";
import { d1Before, d1DownAfter } from "../../helpers/faults";
import { rowsOfAllShards } from "../../helpers/shards";
import { callWithClock, fixedClock } from "../../helpers/worker";

// No operation takes a lock: each commit checks its own preconditions, and a
// request that loses a race answers the contract's status. Another request
// lands at the worst moment: just before a D1 write of the first is sent.

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const clock = fixedClock(NOW);
const healthy = callWithClock(clock);

const CORRECTION = {
  ...minimalRequest(),
  reference: "CORR-1",
  observations: "Corregido",
};

/** The app with `hook` run just before the first D1 call matching `sql`. */
const racing = (sql: RegExp, hook: () => Promise<void>) =>
  callWithClock(clock, d1Before(sql, hook));

const COMMIT_OF_CORRECTION = /update "documents" set "rectified_by_uuid"/;
const RESERVATION_OF_CORRECTION = /insert into "reference_reservations"/;

const documentsWithReference = (credentialId: string, reference: string) =>
  rowsOfAllShards(
    "SELECT uuid FROM documents WHERE credential_id = ? AND reference = ?",
    credentialId,
    reference,
  );

const errorCode = async (response: Response) =>
  ((await response.json()) as { errors: { code: string }[] }).errors[0]?.code;

describe("when another request lands just before a write", () => {
  it("a create does not take the new reference of a correction being committed", async () => {
    const { key, id } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    let create: Response | undefined;
    const correction = await documentsApi(
      racing(COMMIT_OF_CORRECTION, async () => {
        create = await documentsApi(healthy, key).create({
          ...fullRequest(),
          reference: "CORR-1",
        });
      }),
      key,
    ).rectify(original.uuid, CORRECTION);

    expect(create?.status).toBe(409);
    expect(await errorCode(create as Response)).toBe("REFERENCE_CONFLICT");
    expect(correction.status).toBe(200);
    const { uuid } = (await correction.json()) as { uuid: string };
    expect(await documentsWithReference(id, "CORR-1")).toEqual([{ uuid }]);
  });

  it("a correction whose original is deleted meanwhile is refused, and frees its reference", async () => {
    const { key, id } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    let deletion: Response | undefined;
    const correction = await documentsApi(
      racing(COMMIT_OF_CORRECTION, async () => {
        deletion = await documentsApi(healthy, key).remove(original.uuid);
      }),
      key,
    ).rectify(original.uuid, CORRECTION);

    expect(deletion?.status).toBe(204);
    expect(correction.status).toBe(404);
    expect(
      await rowsOfAllShards(
        "SELECT deleted_at IS NOT NULL AS deleted, rectified_by_uuid FROM documents WHERE credential_id = ?",
        id,
      ),
    ).toEqual([{ deleted: 1, rectified_by_uuid: null }]);
    // Nothing holds the reference: it is free again.
    const create = await documentsApi(healthy, key).create({
      ...fullRequest(),
      reference: "CORR-1",
    });
    expect(create.status).toBe(201);
  });

  it("a deletion of an original being corrected is refused once the correction commits", async () => {
    const { key } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    let deletion: Response | undefined;
    const correction = await documentsApi(
      racing(/insert into "document_summaries"/, async () => {
        deletion = await documentsApi(healthy, key).remove(original.uuid);
      }),
      key,
    ).rectify(original.uuid, CORRECTION);

    expect(correction.status).toBe(200);
    expect(deletion?.status).toBe(409);
    expect(await errorCode(deletion as Response)).toBe(
      "DOCUMENT_ALREADY_RECTIFIED",
    );
  });

  it("a deletion refused by a QR access just before its commit leaves the document listed", async () => {
    const { key } = await createCredential();
    const document = await documentsApi(healthy, key).issue(minimalRequest());
    const deletion = await documentsApi(
      racing(/update "documents" set "deleted_at"/, async () => {
        expect((await healthy(qrPath(document.url))).status).toBe(200);
      }),
      key,
    ).remove(document.uuid);

    expect(deletion.status).toBe(409);
    expect(await errorCode(deletion)).toBe("DOCUMENT_ALREADY_ACCESSED");
    const listed = (await (await documentsApi(healthy, key).list()).json()) as {
      data: { uuid: string }[];
    };
    expect(listed.data.map((entry) => entry.uuid)).toEqual([document.uuid]);
  });

  /**
   * Two deletions of one document, the second sent just before the first
   * commits, at `secondAt`: their statuses and the deletion events written.
   */
  async function deleteTwice(secondAt: number) {
    const { key } = await createCredential();
    const document = await documentsApi(healthy, key).issue(minimalRequest());
    let second: Response | undefined;
    const first = await documentsApi(
      racing(/update "documents" set "deleted_at"/, async () => {
        second = await documentsApi(
          callWithClock(fixedClock(secondAt)),
          key,
        ).remove(document.uuid);
      }),
      key,
    ).remove(document.uuid);
    return {
      statuses: [first.status, second?.status],
      events: await rowsOfAllShards(
        "SELECT occurred_at FROM audit_events WHERE document_uuid = ? AND type = 'deleted'",
        document.uuid,
      ),
    };
  }

  it("two deletions of one document both answer 204, with one deletion time", async () => {
    const { statuses, events } = await deleteTwice(NOW + 1);
    expect(statuses).toEqual([204, 204]);
    expect(events).toEqual([{ occurred_at: NOW + 1 }]);
  });

  it("two deletions of one document in the same millisecond write one deletion event", async () => {
    const { statuses, events } = await deleteTwice(NOW);
    expect(statuses).toEqual([204, 204]);
    expect(events).toEqual([{ occurred_at: NOW }]);
  });

  it("a correction that loses its new reference to a create answers 409", async () => {
    const { key, id } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    let create: Response | undefined;
    const correction = await documentsApi(
      racing(RESERVATION_OF_CORRECTION, async () => {
        create = await documentsApi(healthy, key).create({
          ...fullRequest(),
          reference: "CORR-1",
        });
      }),
      key,
    ).rectify(original.uuid, CORRECTION);

    expect(create?.status).toBe(201);
    expect(correction.status).toBe(409);
    expect(await errorCode(correction)).toBe("REFERENCE_CONFLICT");
    const { uuid } = (await (create as Response).json()) as { uuid: string };
    expect(await documentsWithReference(id, "CORR-1")).toEqual([{ uuid }]);
    // The original is still the latest version, and may be corrected.
    const retry = await documentsApi(healthy, key).rectify(original.uuid, {
      ...CORRECTION,
      reference: "CORR-2",
    });
    expect(retry.status).toBe(200);
  });

  it("two corrections of one original: one commits, the other is refused", async () => {
    const { key, id } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    let other: Response | undefined;
    const first = await documentsApi(
      racing(COMMIT_OF_CORRECTION, async () => {
        other = await documentsApi(healthy, key).rectify(original.uuid, {
          ...CORRECTION,
          reference: "CORR-2",
        });
      }),
      key,
    ).rectify(original.uuid, CORRECTION);

    expect(other?.status).toBe(200);
    expect(first.status).toBe(409);
    expect(await errorCode(first)).toBe("DOCUMENT_ALREADY_RECTIFIED");
    // The loser's reference was freed; the winner's holds.
    expect(await documentsWithReference(id, "CORR-1")).toEqual([]);
    expect(
      (
        await documentsApi(healthy, key).create({
          ...fullRequest(),
          reference: "CORR-1",
        })
      ).status,
    ).toBe(201);
  });
});

describe("a correction's reservation whose attempt died", () => {
  /** A correction that reserved its reference, then lost D1 for the rest of its life. */
  async function abandonedCorrection(key: string, originalUuid: string) {
    const response = await documentsApi(
      callWithClock(clock, d1DownAfter(RESERVATION_OF_CORRECTION)),
      key,
    ).rectify(originalUuid, CORRECTION);
    expect(response.status).toBe(503);
  }

  it("holds the reference until it is provably abandoned, then the reference is free", async () => {
    const { key } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    await abandonedCorrection(key, original.uuid);

    const later = fixedClock(NOW + ORPHAN_AGE_MS - 1);
    const early = await documentsApi(callWithClock(later), key).create({
      ...fullRequest(),
      reference: "CORR-1",
    });
    expect(early.status).toBe(409);
    expect(await errorCode(early)).toBe("REFERENCE_CONFLICT");

    later.set(NOW + ORPHAN_AGE_MS);
    const create = await documentsApi(callWithClock(later), key).create({
      ...fullRequest(),
      reference: "CORR-1",
    });
    expect(create.status).toBe(201);
  });

  it("is taken over by the retry of the same correction", async () => {
    const { key } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    await abandonedCorrection(key, original.uuid);

    const retry = await documentsApi(healthy, key).rectify(
      original.uuid,
      CORRECTION,
    );
    expect(retry.status).toBe(200);
  });

  it("is freed by the cron once abandoned", async () => {
    const { key, id } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    await abandonedCorrection(key, original.uuid);
    const reservations = () =>
      rowsOfAllShards(
        "SELECT reference FROM reference_reservations WHERE credential_id = ? AND reference = 'CORR-1'",
        id,
      );
    expect(await reservations()).toHaveLength(1);

    await runCron(NOW + ORPHAN_AGE_MS);
    expect(await reservations()).toEqual([]);
  });
});
