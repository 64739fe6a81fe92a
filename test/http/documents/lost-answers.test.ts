import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { ORPHAN_AGE_MS } from "../../../src/domain/documents/attempts";
import { createCredential } from "../../helpers/credentials";
import { runCron } from "../../helpers/cron";
import {
  type DocumentResultBody,
  documentsApi,
  qrPath,
  sha256Of,
} from "../../helpers/documents-api";
import { d1Lost, r2PutLost } from "../../helpers/faults";
import { rowsOfAllShards } from "../../helpers/shards";
import {
  type Call,
  callWithClock,
  fixedClock,
  fromIp,
} from "../../helpers/worker";

// Production fails ambiguously: a write is applied and its answer lost. Each
// write of issuing and correcting loses its answer in turn (and once D1 stays
// unreachable after it, so that not even the truth can be read back): the
// caller gets the document or a 503, its retry converges on exactly one
// document per reference whose PDF both links serve, and once the cron has
// run nothing of the attempts is left.

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const clock = fixedClock(NOW);
const healthy = callWithClock(clock);

interface Write {
  name: string;
  sql: RegExp;
  bindings?: () => Env;
}

/** Every write of a create with a reference, in order. */
const CREATE_WRITES: Write[] = [
  {
    name: "the read that notes the PDF",
    sql: /insert into "pending_pdf_objects"/,
  },
  { name: "the R2 put", sql: /^$/, bindings: r2PutLost },
  { name: "the commit", sql: /insert into "documents"/ },
  { name: "the listing", sql: /insert into "document_summaries"/ },
  { name: "the note's removal", sql: /delete from "pending_pdf_objects"/ },
];

/** Every write of a correction with a new reference, in order. */
const CORRECTION_WRITES: Write[] = [
  {
    name: "the read of the original that notes the PDF",
    sql: /insert into "pending_pdf_objects"/,
  },
  { name: "the reservation", sql: /insert into "reference_reservations"/ },
  { name: "the R2 put", sql: /^$/, bindings: r2PutLost },
  { name: "the commit", sql: /update "documents" set "rectified_by_uuid"/ },
  { name: "the listing", sql: /insert into "document_summaries"/ },
  { name: "the note's removal", sql: /delete from "pending_pdf_objects"/ },
];

const CASES = [
  { lost: "its answer lost", thenDown: false },
  { lost: "its answer lost and D1 unreachable after it", thenDown: true },
];

const faulty = (write: Write, thenDown: boolean): Call =>
  callWithClock(clock, write.bindings?.() ?? d1Lost(write.sql, { thenDown }));

/** The first answer: the document, or a 503 that says when to retry. */
async function expectDocumentOrRetryLater(response: Response, ok: number) {
  if (response.status === ok) return;
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({
    errors: [{ field: null, code: "SERVICE_UNAVAILABLE" }],
  });
  expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
}

/** The document's PDF as both links serve it: bytes whose SHA-256 the result states. */
async function expectServed(key: string, document: DocumentResultBody) {
  const api = documentsApi(healthy, key);
  const pdf = await api.pdf(document.uuid);
  expect(pdf.status).toBe(200);
  expect(await sha256Of(await pdf.arrayBuffer())).toBe(document.pdf.sha256);
  const qr = await healthy(qrPath(document.url));
  expect(qr.status).toBe(200);
  expect(await sha256Of(await qr.arrayBuffer())).toBe(document.pdf.sha256);
}

/**
 * Once the cron has run past every attempt's life: no note, no PDF without
 * its document, every reservation confirmed and held by its document.
 */
async function expectNothingLeft() {
  await runCron(NOW + ORPHAN_AGE_MS);
  expect(await rowsOfAllShards("SELECT * FROM pending_pdf_objects")).toEqual(
    [],
  );
  const documents = new Set(
    (await rowsOfAllShards<{ uuid: string }>("SELECT uuid FROM documents")).map(
      (row) => `documents/${row.uuid}.pdf`,
    ),
  );
  const objects = (await env.PDFS.list({ prefix: "documents/" })).objects.map(
    (object) => object.key,
  );
  expect(objects.filter((key) => !documents.has(key))).toEqual([]);
  const reservations = await rowsOfAllShards<{
    document_uuid: string;
    rectifies_uuid: string | null;
  }>("SELECT document_uuid, rectifies_uuid FROM reference_reservations");
  for (const reservation of reservations) {
    expect(reservation.rectifies_uuid).toBeNull();
    expect(documents.has(`documents/${reservation.document_uuid}.pdf`)).toBe(
      true,
    );
  }
}

const documentsWithReference = (credentialId: string, reference: string) =>
  rowsOfAllShards(
    "SELECT uuid FROM documents WHERE credential_id = ? AND reference = ?",
    credentialId,
    reference,
  );

describe.each(CASES)("a create whose write has $lost", ({ thenDown }) => {
  it.each(CREATE_WRITES)(
    "$name: the retry converges on one document",
    async (write) => {
      const { key, id } = await createCredential();
      const first = await documentsApi(faulty(write, thenDown), key).create(
        fullRequest(),
      );
      await expectDocumentOrRetryLater(first, 201);

      const retry = await documentsApi(healthy, key).create(fullRequest());
      expect([200, 201]).toContain(retry.status);
      if (first.status === 201) expect(retry.status).toBe(200);
      const document = (await retry.json()) as DocumentResultBody;
      if (first.status === 201) {
        expect(((await first.json()) as DocumentResultBody).uuid).toBe(
          document.uuid,
        );
      }
      expect(await documentsWithReference(id, "PED-2026-0001")).toEqual([
        { uuid: document.uuid },
      ]);
      await expectServed(key, document);
      await expectNothingLeft();
      await expectServed(key, document);
    },
  );
});

describe.each(CASES)("a demo create whose write has $lost", ({ thenDown }) => {
  it.each(CREATE_WRITES)(
    "$name: the retry converges on one document, counted once",
    async (write) => {
      // One caller a test: the demo limits tokens and documents per IP.
      const ip = `203.0.113.${100 + CREATE_WRITES.indexOf(write) + (thenDown ? 10 : 0)}`;
      const tokenResponse = await fromIp(healthy, ip)("/api/v1/demo/tokens", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
      const { token } = (await tokenResponse.json()) as { token: string };
      const demoApi = (request: Call) =>
        documentsApi(fromIp(request, ip), token);
      const first = await demoApi(faulty(write, thenDown)).create(
        fullRequest(),
      );
      await expectDocumentOrRetryLater(first, 201);

      const retry = await demoApi(healthy).create(fullRequest());
      expect([200, 201]).toContain(retry.status);
      if (first.status === 201) expect(retry.status).toBe(200);
      const document = (await retry.json()) as DocumentResultBody;
      const sessions = await rowsOfAllShards<{ id: string }>(
        "SELECT credential_id AS id FROM documents WHERE uuid = ?",
        document.uuid,
      );
      const id = sessions[0]?.id as string;
      expect(await documentsWithReference(id, "PED-2026-0001")).toEqual([
        { uuid: document.uuid },
      ]);
      const counts = await rowsOfAllShards<{ issued: number }>(
        "SELECT count(*) AS issued FROM documents WHERE credential_id = ?",
        id,
      );
      expect(counts.reduce((sum, row) => sum + row.issued, 0)).toBe(1);
      await expectNothingLeft();
      const pdf = await demoApi(healthy).pdf(document.uuid);
      expect(await sha256Of(await pdf.arrayBuffer())).toBe(document.pdf.sha256);
    },
  );
});

describe.each(CASES)("a correction whose write has $lost", ({ thenDown }) => {
  it.each(CORRECTION_WRITES)(
    "$name: the retry converges on one correction",
    async (write) => {
      const { key, id } = await createCredential();
      const original = await documentsApi(healthy, key).issue(minimalRequest());
      const correction = {
        ...minimalRequest(),
        reference: "CORR-1",
        observations: "Corregido",
      };

      const first = await documentsApi(faulty(write, thenDown), key).rectify(
        original.uuid,
        correction,
      );
      await expectDocumentOrRetryLater(first, 200);

      const retry = await documentsApi(healthy, key).rectify(
        original.uuid,
        correction,
      );
      expect(retry.status).toBe(200);
      const document = (await retry.json()) as DocumentResultBody;
      if (first.status === 200) {
        expect(((await first.json()) as DocumentResultBody).uuid).toBe(
          document.uuid,
        );
      }
      expect(await documentsWithReference(id, "CORR-1")).toEqual([
        { uuid: document.uuid },
      ]);
      const byReference = await documentsApi(healthy, key).get("ref/CORR-1");
      expect(await byReference.json()).toMatchObject({ uuid: document.uuid });
      // The reference is the correction's: another body under it is refused.
      const taken = await documentsApi(healthy, key).create({
        ...fullRequest(),
        reference: "CORR-1",
      });
      expect(taken.status).toBe(409);
      await expectServed(key, document);
      await expectNothingLeft();
      await expectServed(key, document);
    },
  );
});

describe.each(CASES)(
  "a QR scan whose access record has $lost",
  ({ thenDown }) => {
    it("answers 503 or the PDF; the next scan serves it, and the access blocks deletion", async () => {
      const { key } = await createCredential();
      const document = await documentsApi(healthy, key).issue(minimalRequest());
      const scan = callWithClock(
        clock,
        d1Lost(/update "documents" set "first_qr_access_at"/, { thenDown }),
      );

      const first = await scan(qrPath(document.url));
      if (first.status !== 200) {
        await expectDocumentOrRetryLater(first, 200);
      }
      await expectServed(key, document);
      const deletion = await documentsApi(healthy, key).remove(document.uuid);
      expect(deletion.status).toBe(409);
    });
  },
);

describe.each(CASES)("a demo token whose write has $lost", ({ thenDown }) => {
  it("answers 503 or the token; a new request gets a token that issues", async () => {
    // One caller a case: the demo limits tokens per IP.
    const ip = thenDown ? "203.0.113.79" : "203.0.113.78";
    const caller = (request: Call) => fromIp(request, ip);
    const take = (request: Call) =>
      caller(request)("/api/v1/demo/tokens", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      });
    const first = await take(
      callWithClock(clock, d1Lost(/insert into "credentials"/, { thenDown })),
    );
    await expectDocumentOrRetryLater(first, 201);

    const retry = await take(healthy);
    expect(retry.status).toBe(201);
    const { token } = (await retry.json()) as { token: string };
    const issued = await documentsApi(caller(healthy), token).create(
      minimalRequest(),
    );
    expect(issued.status).toBe(201);
  });
});
