import { ValidationError } from "../../errors";

/** docs/api.md, Limits: a stored PDF is at most 5 MB (decimal, so within either reading). */
export const MAX_PDF_BYTES = 5_000_000;

/** The 422 of a document whose rendered PDF would exceed MAX_PDF_BYTES. */
export const documentTooLarge = (): ValidationError =>
  new ValidationError([
    {
      field: null,
      code: "DOCUMENT_TOO_LARGE",
      message: `The PDF of this document would exceed ${MAX_PDF_BYTES} bytes; shorten its texts.`,
    },
  ]);
