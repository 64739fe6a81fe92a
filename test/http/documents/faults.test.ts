import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import { documentsApi, qrPath } from "../../helpers/documents-api";
import {
  d1WritesDown,
  r2GetDown,
  r2PutDown,
  r2PutLost,
} from "../../helpers/faults";
import { rowsOfAllShards } from "../../helpers/shards";
import {
  type Call,
  callWith,
  callWithClock,
  fixedClock,
} from "../../helpers/worker";

// Each step of issuing, correcting and deleting fails in turn, through the
// bindings and the renderer the app is given: the answer is a clean 500 or
// 503, nothing of the failed attempt is left visible, the same request then
// succeeds, and the audit trail holds exactly what succeeded.

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const clock = fixedClock(NOW);
const healthy = callWithClock(clock);

type Fault = { name: string; call: Call; status: 500 | 503; code: string };

const FAULTS: Fault[] = [
  {
    name: "the PDF renderer throws",
    call: callWith({
      clock,
      renderPdf: () => Promise.reject(new Error("renderer down")),
    }),
    status: 500,
    code: "INTERNAL_ERROR",
  },
  {
    name: "R2 refuses the put",
    call: callWithClock(clock, r2PutDown()),
    status: 503,
    code: "SERVICE_UNAVAILABLE",
  },
  {
    name: "R2 stores the PDF but reports a failure",
    call: callWithClock(clock, r2PutLost()),
    status: 503,
    code: "SERVICE_UNAVAILABLE",
  },
  {
    name: "the D1 write fails",
    call: callWithClock(clock, d1WritesDown()),
    status: 503,
    code: "SERVICE_UNAVAILABLE",
  },
];

/**
 * What the credential has left in storage: documents, reservations, audit
 * events, the PDFs, and notes of PDFs whose issue is unfinished.
 */
async function stateOf(credentialId: string) {
  const rows = (sql: string) => rowsOfAllShards(sql, credentialId);
  return {
    documents: await rows(
      "SELECT uuid, reference, rectified_by_uuid, deleted_at FROM documents WHERE credential_id = ? ORDER BY created_at, uuid",
    ),
    reservations: await rows(
      "SELECT reference, document_uuid FROM reference_reservations WHERE credential_id = ? ORDER BY reference",
    ),
    audit: await rows(
      "SELECT document_uuid, type, request_id FROM audit_events WHERE credential_id = ? ORDER BY id",
    ),
    objects: (await env.PDFS.list()).objects.map((o) => o.key).sort(),
    pendingPdfs: await rowsOfAllShards(
      "SELECT object_key FROM pending_pdf_objects",
    ),
  };
}

async function expectCleanFailure(response: Response, fault: Fault) {
  expect(response.status).toBe(fault.status);
  const body = (await response.json()) as {
    errors: { code: string; message: string }[];
  };
  expect(body).toMatchObject({ errors: [{ field: null, code: fault.code }] });
  expect(body.errors[0]?.message).not.toMatch(/ at |Error:/);
  // An outage says when to retry (docs/api.md, Errors).
  if (fault.status === 503) {
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
  }
  if (fault.status === 500) {
    expect(body.errors[0]?.message).toContain(
      response.headers.get("X-Request-Id"),
    );
  }
}

describe.each(FAULTS)("when $name", (fault) => {
  it("an issue leaves nothing, and the retry issues the document", async () => {
    const { key, id } = await createCredential();
    const before = await stateOf(id);
    const response = await documentsApi(fault.call, key).create(fullRequest());
    await expectCleanFailure(response, fault);
    expect(await stateOf(id)).toEqual(before);

    const retry = await documentsApi(healthy, key).create(fullRequest());
    expect(retry.status).toBe(201);
    const { uuid } = (await retry.json()) as { uuid: string };
    const after = await stateOf(id);
    expect(after.documents).toHaveLength(1);
    expect(after.reservations).toEqual([
      { reference: "PED-2026-0001", document_uuid: uuid },
    ]);
    expect(after.audit).toEqual([
      {
        document_uuid: uuid,
        type: "issued",
        request_id: retry.headers.get("X-Request-Id"),
      },
    ]);
    expect(after.objects).toEqual(
      [...before.objects, `documents/${uuid}.pdf`].sort(),
    );
  });
});

describe.each(FAULTS)("when $name", (fault) => {
  it("a correction leaves the original the latest version, and the retry corrects it", async () => {
    const { key, id } = await createCredential();
    const original = await documentsApi(healthy, key).issue(minimalRequest());
    const before = await stateOf(id);
    const correction = {
      ...minimalRequest(),
      reference: "CORR-1",
      observations: "Corregido",
    };

    const response = await documentsApi(fault.call, key).rectify(
      original.uuid,
      correction,
    );
    await expectCleanFailure(response, fault);
    expect(await stateOf(id)).toEqual(before);

    const retry = await documentsApi(healthy, key).rectify(
      original.uuid,
      correction,
    );
    expect(retry.status).toBe(200);
    const { uuid } = (await retry.json()) as { uuid: string };
    const requestId = retry.headers.get("X-Request-Id");
    expect((await stateOf(id)).audit).toEqual([
      ...before.audit,
      { document_uuid: uuid, type: "issued", request_id: requestId },
      {
        document_uuid: original.uuid,
        type: "rectified",
        request_id: requestId,
      },
    ]);
  });
});

describe.each(FAULTS.filter((fault) => !/renderer/.test(fault.name)))(
  "when $name",
  (fault) => {
    it("a deletion leaves the document active, and the retry deletes it", async () => {
      const { key, id } = await createCredential();
      const document = await documentsApi(healthy, key).issue(minimalRequest());
      const before = await stateOf(id);

      const response = await documentsApi(fault.call, key).remove(
        document.uuid,
      );
      await expectCleanFailure(response, fault);
      expect(await stateOf(id)).toEqual(before);
      expect(
        await (await documentsApi(healthy, key).status(document.uuid)).json(),
      ).toEqual({
        status: "active",
      });

      const retry = await documentsApi(healthy, key).remove(document.uuid);
      expect(retry.status).toBe(204);
      expect((await stateOf(id)).audit).toEqual([
        ...before.audit,
        {
          document_uuid: document.uuid,
          type: "deleted",
          request_id: retry.headers.get("X-Request-Id"),
        },
      ]);
    });
  },
);

describe("when R2 refuses reads", () => {
  it("a PDF download and a QR link answer 503, recording nothing", async () => {
    const { key, id } = await createCredential();
    const document = await documentsApi(healthy, key).issue(minimalRequest());
    const before = await stateOf(id);
    const down = callWithClock(clock, r2GetDown());
    const fault: Fault = {
      name: "R2 refuses reads",
      call: down,
      status: 503,
      code: "SERVICE_UNAVAILABLE",
    };
    await expectCleanFailure(
      await documentsApi(down, key).pdf(document.uuid),
      fault,
    );
    await expectCleanFailure(await down(qrPath(document.url)), fault);
    expect(await stateOf(id)).toEqual(before);
    // Nothing was recorded as accessed: the document can still be deleted.
    expect(
      (await documentsApi(healthy, key).remove(document.uuid)).status,
    ).toBe(204);
  });
});
