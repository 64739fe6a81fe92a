import { ISSUE } from "../../fixtures/documents";
import type { DocumentPdfInput } from "../../src/domain/documents/render-port";
import type { DocumentData } from "../../src/schemas/document-request";

/** What the renderer gets for `data`: the fixtures' identity, in Spanish, not a demo. */
export const renderInput = (
  data: DocumentData,
  overrides: Partial<DocumentPdfInput> = {},
): DocumentPdfInput => ({
  data,
  ...ISSUE,
  locale: "es",
  environment: "live",
  ...overrides,
});
