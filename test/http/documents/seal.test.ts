import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import {
  documentsApi,
  issueDemoDocument,
  qrPath,
  sha256Of,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { shardOf } from "../../helpers/shards";
import { callWithClock, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 8);

/** Whether `bytes` carry a PAdES signature whose ByteRange was filled in. */
const sealed = (bytes: ArrayBuffer): boolean => {
  const text = new TextDecoder("latin1").decode(bytes);
  return (
    text.includes("/SubFilter /ETSI.CAdES.detached") &&
    /\/ByteRange \[0 \d+ \d+ \d+\s*\]/.test(text)
  );
};

describe("the seal of an issued document", () => {
  it("is what R2, the download and the QR link serve, and what pdf.sha256, size_bytes and pdf.seal name", async () => {
    const { request, api, document } = await withIssuedDocument(NOW);
    expect(document.pdf.seal).toEqual({
      level: "B-B",
      certificate_subject:
        "CN=DeCA sello de PRUEBAS (local), O=DeCA local, C=ES",
      timestamp: null,
    });
    for (const response of [
      await api.pdf(document.uuid),
      await request(qrPath(document.url)),
    ]) {
      expect(response.status).toBe(200);
      const bytes = await response.arrayBuffer();
      expect(sealed(bytes)).toBe(true);
      expect(bytes.byteLength).toBe(document.pdf.size_bytes);
      expect(await sha256Of(bytes)).toBe(document.pdf.sha256);
    }
    expect(await (await api.get(document.uuid)).json()).toEqual(document);
  });

  it("is not made again by an identical retry, which answers the same bytes and seal", async () => {
    const { api, document } = await withIssuedDocument(NOW);
    const retry = await api.create(fullRequest());
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(document);
    const bytes = await (await api.pdf(document.uuid)).arrayBuffer();
    expect(await sha256Of(bytes)).toBe(document.pdf.sha256);
  });

  it("is a correction's too", async () => {
    const { api, document } = await withIssuedDocument(NOW);
    const body = fullRequest();
    body.reference = "PED-2026-0001-B";
    body.goods.weight_kg = "13000";
    const response = await api.rectify(document.uuid, body);
    expect(response.status).toBe(200);
    const correction = (await response.json()) as typeof document;
    expect(correction.pdf.seal).toEqual(document.pdf.seal);
    const bytes = await (await api.pdf(correction.uuid)).arrayBuffer();
    expect(sealed(bytes)).toBe(true);
    expect(await sha256Of(bytes)).toBe(correction.pdf.sha256);
  });

  it("is each environment's own seal: live, test and demo never share one", async () => {
    const request = callWithClock(fixedClock(NOW));
    const live = await createCredential({ environment: "live" });
    const liveDocument = await documentsApi(request, live.key).issue(
      minimalRequest(),
    );
    expect(liveDocument.pdf.seal?.certificate_subject).toBe(
      "CN=DeCA sello local (sin validez fuera de esta máquina), O=DeCA local, C=ES",
    );
    const demo = await issueDemoDocument(request);
    expect(demo.pdf.seal?.certificate_subject).toBe(
      "CN=DeCA sello DEMO (local), O=DeCA local, C=ES",
    );
  });

  it("is null for a document issued before PDFs were sealed, served as it was", async () => {
    const { api, document } = await withIssuedDocument(NOW);
    // Its row as the migration that added the column left it.
    await shardOf(document.uuid)
      .prepare("UPDATE documents SET pdf_seal = NULL WHERE uuid = ?")
      .bind(document.uuid)
      .run();
    const response = await api.get(document.uuid);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ...document,
      pdf: { ...document.pdf, seal: null },
    });
    const bytes = await (await api.pdf(document.uuid)).arrayBuffer();
    expect(await sha256Of(bytes)).toBe(document.pdf.sha256);
  });
});
