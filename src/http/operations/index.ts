import type { Operation } from "../operation";
import { correctDocumentOperation } from "./correct-document";
import { createDemoTokenOperation } from "./create-demo-token";
import { createDocumentOperation } from "./create-document";
import { deleteDocumentOperation } from "./delete-document";
import { atEveryAddress } from "./document-address";
import { documentPdfOperation } from "./document-pdf";
import { documentQrCodeOperation } from "./document-qr-code";
import { documentStatusOperation } from "./document-status";
import { getDocumentOperation } from "./get-document";
import { getEventOperation } from "./get-event";
import { listDocumentsOperation } from "./list-documents";
import { listEventsOperation } from "./list-events";
import { QR_LINK_OPERATIONS } from "./qr-links";
import { redeliverEventOperation } from "./redeliver-event";
import { validateDocumentOperation } from "./validate-document";

/**
 * Every operation of the API, in the order the OpenAPI document lists them.
 * An operation is one file here and one line below.
 */
export const OPERATIONS: readonly Operation[] = [
  listDocumentsOperation,
  createDocumentOperation,
  validateDocumentOperation,
  // At a document's reference, then at its uuid.
  ...atEveryAddress([
    getDocumentOperation,
    correctDocumentOperation,
    deleteDocumentOperation,
    documentStatusOperation,
    documentPdfOperation,
    documentQrCodeOperation,
  ]),
  listEventsOperation,
  getEventOperation,
  redeliverEventOperation,
  createDemoTokenOperation,
  ...QR_LINK_OPERATIONS,
];
