import { describe, expect, it } from "vitest";
import { FULL_DOCUMENT, ISSUE } from "../../fixtures/documents";
import type {
  DocumentPdf,
  DocumentPdfInput,
} from "../../src/domain/documents/render-port";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { DOCUMENT_LOCALES } from "../../src/schemas/document-locale";
import { ENVIRONMENTS } from "../../src/schemas/environment";

// Inside workerd, like production: a fontkit that waits on timers (the
// process.nextTick polyfill of @pdf-lib/fontkit) would leave concurrent
// renders waiting on each other until workerd cancels them as hung.
describe("rendering inside the Worker", () => {
  it("renders eight documents at once, each as it renders alone", async () => {
    const inputs = DOCUMENT_LOCALES.map(
      (locale, index): DocumentPdfInput => ({
        data: FULL_DOCUMENT,
        ...ISSUE,
        uuid: `0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e8${index}`,
        locale,
        environment: ENVIRONMENTS[index % ENVIRONMENTS.length] ?? "live",
      }),
    );

    const together = await Promise.all(inputs.map(renderDocumentPdf));
    const alone: DocumentPdf[] = [];
    for (const input of inputs) alone.push(await renderDocumentPdf(input));

    expect(together).toHaveLength(8);
    together.forEach((pdf, index) => {
      expect(new TextDecoder().decode(pdf.bytes.subarray(0, 5))).toBe("%PDF-");
      expect(pdf.pages).toBe(1);
      expect(pdf.bytes).toEqual(alone[index]?.bytes);
    });
  });
});
