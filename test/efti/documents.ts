// Stored documents of the export's tests: request bodies parsed as the API
// parses them, so each is a document the service can hold.

import type { ExportedDocument } from "../../src/domain/efti/consignment";
import { documentRequestSchema } from "../../src/schemas/document-request";

export const DOCUMENT_UUID = "0b6f4d2e-8c1a-4f3b-9e7d-5a2c1b0f9e84";
/** When the test documents were issued: 21 November 2026, 07:30 UTC. */
export const ISSUED_AT = Date.UTC(2026, 10, 21, 7, 30);

/** `body` parsed and normalized, as stored under `uuid`. */
export function storedDocument(
  body: unknown,
  {
    uuid = DOCUMENT_UUID,
    createdAt = ISSUED_AT,
    rectifiesUuid = null as string | null,
    rectifiedByUuid = null as string | null,
  } = {},
): ExportedDocument {
  const { metadata: _, ...data } = documentRequestSchema.parse(body);
  return { uuid, createdAt, rectifiesUuid, rectifiedByUuid, data };
}
