import type { DocumentData } from "../../schemas/document-request";
import { type Warning, warning } from "../../schemas/warning";
import { dateIn, documentTimeZone } from "./origin-time-zone";

/**
 * What looks wrong in a document issued at `issuedAt` (docs/api.md,
 * Warnings), as `warnings` when anything does: judged at the time of issue,
 * so that a retry and a reading answer the same.
 */
export function documentWarnings(
  data: DocumentData,
  issuedAt: number,
): { warnings?: Warning[] } {
  // Dates `YYYY-MM-DD` of years 0000–9999 sort as text.
  const today = dateIn(documentTimeZone(data), issuedAt);
  return data.transport_date < today
    ? { warnings: [warning("TRANSPORT_DATE_PAST", "transport_date")] }
    : {};
}
