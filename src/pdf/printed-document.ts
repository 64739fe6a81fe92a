import { documentTimeZone } from "../domain/documents/origin-time-zone";
import type { IssuedDocument } from "../domain/documents/render-port";
import { type Change, changedFields } from "./changed-fields";
import { formatLocalTime } from "./format";
import type { Messages } from "./i18n";
import { type PrintedData, printedData } from "./printed-fields";

/**
 * What the content of a document is built from: its data only as printed
 * (printed-fields.ts), so that whatever prints is what a correction compares.
 */
export interface PrintedDocument {
  printed: PrintedData;
  /** Names the version; printed, never compared. */
  reference: string | null;
  timeOfIssue: string;
  qrUrl: string;
  /** The version a correction rectifies, named by its reference when it has one, and what the correction changed. */
  rectifies: {
    uuid: string;
    reference: string | null;
    changes: Change[];
  } | null;
}

/**
 * The time of issue on the clocks of the place of loading, with their
 * offset: the first shipment's, for a grouped document.
 */
function timeOfIssue(document: IssuedDocument, messages: Messages): string {
  const zone = documentTimeZone(document.data);
  const zoneName =
    zone === "Atlantic/Canary" ? messages.canaryTime : messages.peninsularTime;
  return formatLocalTime(document.createdAt, zone, zoneName);
}

export function printedDocument(
  document: IssuedDocument,
  messages: Messages,
): PrintedDocument {
  const printed = printedData(document.data);
  const { rectifies } = document;
  return {
    printed,
    reference: document.data.reference,
    timeOfIssue: timeOfIssue(document, messages),
    qrUrl: document.qrUrl,
    rectifies: rectifies && {
      uuid: rectifies.uuid,
      reference: rectifies.data.reference,
      changes: changedFields(printedData(rectifies.data), printed),
    },
  };
}
