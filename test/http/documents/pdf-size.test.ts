import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { STAND_IN_SEAL_FACTS } from "../../../fixtures/seal";
import { MAX_PDF_BYTES } from "../../../src/domain/documents/pdf-size";
import type { RenderPdf } from "../../../src/domain/documents/render-port";
import { createCredential } from "../../helpers/credentials";
import { documentsApi } from "../../helpers/documents-api";
import { callWith, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);

/** A renderer whose PDF has exactly `size` bytes. */
const renderOfSize =
  (size: number): RenderPdf =>
  async () => ({
    bytes: new Uint8Array(size).fill(0x25),
    pages: 1,
    seal: STAND_IN_SEAL_FACTS,
  });

describe("the 5 MB PDF limit at issue", () => {
  it("refuses a document whose PDF would exceed it, storing nothing", async () => {
    expect(MAX_PDF_BYTES).toBe(5_000_000);
    const { key } = await createCredential();
    const before = (await env.PDFS.list()).objects.length;
    const api = documentsApi(
      callWith({
        clock: fixedClock(NOW),
        renderPdf: renderOfSize(MAX_PDF_BYTES + 1),
      }),
      key,
    );
    const response = await api.create(fullRequest());
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      errors: [
        {
          field: null,
          code: "DOCUMENT_TOO_LARGE",
          message:
            "The PDF of this document would exceed 5000000 bytes; shorten its texts.",
        },
      ],
    });
    expect((await env.PDFS.list()).objects.length).toBe(before);
    expect(await (await api.list()).json()).toMatchObject({
      meta: { total: 0 },
    });
    // The reference was not reserved: the same request can still be issued.
    expect(
      (
        await documentsApi(
          callWith({ clock: fixedClock(NOW), renderPdf: renderOfSize(1000) }),
          key,
        ).create(fullRequest())
      ).status,
    ).toBe(201);
  });

  it("issues a PDF of exactly the limit, and serves it back whole", async () => {
    const { key } = await createCredential();
    const api = documentsApi(
      callWith({
        clock: fixedClock(NOW),
        renderPdf: renderOfSize(MAX_PDF_BYTES),
      }),
      key,
    );
    const document = await api.issue({ ...fullRequest(), reference: null });
    expect(document.pdf.size_bytes).toBe(MAX_PDF_BYTES);
    const pdf = await api.pdf(document.uuid);
    expect((await pdf.arrayBuffer()).byteLength).toBe(MAX_PDF_BYTES);
  });

  it("refuses a correction whose PDF would exceed it, leaving the original the latest", async () => {
    const { key } = await createCredential();
    const clock = fixedClock(NOW);
    const original = await documentsApi(
      callWith({ clock, renderPdf: renderOfSize(1000) }),
      key,
    ).issue(fullRequest());
    const oversized = documentsApi(
      callWith({ clock, renderPdf: renderOfSize(MAX_PDF_BYTES + 1) }),
      key,
    );
    const response = await oversized.rectify(original.uuid, {
      ...fullRequest(),
      reference: "PED-2026-0002",
    });
    expect(response.status).toBe(422);
    const retried = await documentsApi(
      callWith({ clock, renderPdf: renderOfSize(1000) }),
      key,
    ).rectify(original.uuid, { ...fullRequest(), reference: "PED-2026-0002" });
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({
      rectifies_uuid: original.uuid,
    });
  });
});
