import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import {
  comparable,
  documentsApi,
  qrPath,
  sha256Of,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { d1Down, d1WritesDown, r2GetDown } from "../../helpers/faults";
import { rowsOfAllShards } from "../../helpers/shards";
import { callWithClock } from "../../helpers/worker";

const DAY = 24 * 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 5);

/** What a phone's browser sends when it opens a link. */
const PHONE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

const setup = () => withIssuedDocument(NOW);

describe("GET /d/{uuid}?k=", () => {
  it("serves the stored PDF inline with no Bearer", async () => {
    const { request, document } = await setup();
    const response = await request(qrPath(document.url));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline/);
    expect(response.headers.get("Cache-Control")).toBe("no-store, private");
    expect(await sha256Of(await response.arrayBuffer())).toBe(
      document.pdf.sha256,
    );
  });

  it("opens in a phone's browser under a title that says PRUEBAS and SIN VALIDEZ for a test document, neither for a live one", async () => {
    const { request, document } = await setup();
    const live = await createCredential({ environment: "live" });
    const liveDocument = await documentsApi(request, live.key).issue(
      fullRequest(),
    );
    // What a phone's browser shows as the page's title: the PDF's, opened inline.
    const titleOf = async (url: string) => {
      const response = await request(qrPath(url), {
        headers: { Accept: PHONE },
      });
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      const pdf = await PDFDocument.load(await response.arrayBuffer(), {
        updateMetadata: false,
      });
      return pdf.getTitle();
    };
    expect(await titleOf(document.url)).toBe(
      `PRUEBAS — SIN VALIDEZ — Documento de control ${document.uuid}`,
    );
    expect(await titleOf(liveDocument.url)).toBe(
      `Documento de control ${liveDocument.uuid}`,
    );
  });

  it("answers a wrong secret within the deletion window 404 without reaching D1 or R2", async () => {
    const { clock, document } = await setup();
    const k = new URL(document.url).searchParams.get("k") as string;
    const flipped = `${k.slice(0, -1)}${k.endsWith("A") ? "B" : "A"}`;
    const storageDown = callWithClock(clock, {
      ...d1Down(),
      PDFS: r2GetDown().PDFS,
    });
    const wrong = await storageDown(`/d/${document.uuid}?k=${flipped}`);
    expect(wrong.status).toBe(404);
    // The right secret does need them: the outage shows.
    expect((await storageDown(qrPath(document.url))).status).toBe(503);
  });

  it("answers one identical 404 for a wrong, missing or foreign secret and an unknown uuid", async () => {
    const { request, api, document } = await setup();
    const url = new URL(document.url);
    const k = url.searchParams.get("k") as string;
    const unknown = await comparable(
      await request(`/d/00000000-0000-4000-8000-000000000000?k=${k}`),
    );
    expect(unknown.status).toBe(404);
    const other = await api.issue(minimalRequest());
    const otherK = new URL(other.url).searchParams.get("k");
    const flipped = `${k.slice(0, -1)}${k.endsWith("A") ? "B" : "A"}`;
    for (const path of [
      `/d/${document.uuid}?k=${flipped}`,
      `/d/${document.uuid}?k=${otherK}`,
      `/d/${document.uuid}`,
      `/d/${document.uuid}?k=`,
      `/d/${document.uuid}?k=${k}x`,
      `/demo/d/${document.uuid}?k=${k}`,
      `/d/NOT-A-UUID?k=${k}`,
    ]) {
      expect(await comparable(await request(path)), path).toEqual(unknown);
    }
  });

  it("keeps working after 24 hours and after the issuing key is revoked", async () => {
    const { clock, request, owner, document } = await setup();
    clock.set(NOW + 400 * DAY);
    await rowsOfAllShards(
      "UPDATE credentials SET revoked_at = ? WHERE id = ?",
      NOW,
      owner.id,
    );
    expect((await request(qrPath(document.url))).status).toBe(200);
  });

  it("records the first scan within the deletion window, and a later one a minute after it; only the first waits for the write", async () => {
    const { clock, request, api, document } = await setup();
    expect((await request(qrPath(document.url))).status).toBe(200);
    clock.advance(60_000);
    // Once the first access is recorded, a later scan is served even while
    // D1 takes no write, and recorded after the answer.
    const later = await callWithClock(
      clock,
      d1WritesDown(),
    )(qrPath(document.url));
    expect(later.status).toBe(200);
    expect(await sha256Of(await later.arrayBuffer())).toBe(document.pdf.sha256);
    expect((await request(qrPath(document.url))).status).toBe(200);
    expect(
      await rowsOfAllShards(
        "SELECT type, occurred_at FROM audit_events WHERE document_uuid = ? AND type = 'qr_accessed' ORDER BY id",
        document.uuid,
      ),
    ).toEqual([
      { type: "qr_accessed", occurred_at: NOW },
      { type: "qr_accessed", occurred_at: NOW + 60_000 },
    ]);
    expect((await api.remove(document.uuid)).status).toBe(409);
  });

  it("answers a first scan 503 when D1 takes no write: the access must be recorded first", async () => {
    const { clock, api, document } = await setup();
    const first = await callWithClock(
      clock,
      d1WritesDown(),
    )(qrPath(document.url));
    expect(first.status).toBe(503);
    expect((await api.remove(document.uuid)).status).toBe(204);
  });

  it("answers 404 for a deleted document, even with the right secret", async () => {
    const { request, api } = await setup();
    const document = await api.issue(minimalRequest());
    await api.remove(document.uuid);
    expect((await request(qrPath(document.url))).status).toBe(404);
  });

  it("answers HEAD like GET without a body", async () => {
    const { request, document } = await setup();
    const response = await request(qrPath(document.url), { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(await response.text()).toBe("");
  });
});

describe("audit trail", () => {
  it("records issue, retry, correction, download, QR access and deletion, and keeps them", async () => {
    const { request, owner, api, document } = await setup();
    expect((await api.create(fullRequest())).status).toBe(200);
    await api.pdf(document.uuid);
    await request(qrPath(document.url));
    const body = fullRequest();
    body.reference = "PED-2026-0001-B";
    const correction = (await (
      await api.rectify(document.uuid, body)
    ).json()) as { uuid: string };
    await api.remove(correction.uuid);
    const results = await rowsOfAllShards(
      "SELECT document_uuid, type, credential_id FROM audit_events WHERE document_uuid IN (?, ?) ORDER BY id",
      document.uuid,
      correction.uuid,
    );
    expect(results).toEqual([
      { document_uuid: document.uuid, type: "issued", credential_id: owner.id },
      {
        document_uuid: document.uuid,
        type: "retried",
        credential_id: owner.id,
      },
      {
        document_uuid: document.uuid,
        type: "pdf_downloaded",
        credential_id: owner.id,
      },
      {
        document_uuid: document.uuid,
        type: "qr_accessed",
        credential_id: null,
      },
      {
        document_uuid: correction.uuid,
        type: "issued",
        credential_id: owner.id,
      },
      {
        document_uuid: document.uuid,
        type: "rectified",
        credential_id: owner.id,
      },
      {
        document_uuid: correction.uuid,
        type: "deleted",
        credential_id: owner.id,
      },
    ]);
  });
});
