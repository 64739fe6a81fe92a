import type { Operation } from "../operation";
import { correctDocumentOperation } from "./correct-document";
import { createDemoTokenOperation } from "./create-demo-token";
import { createDocumentOperation } from "./create-document";
import { createWebhookEndpointOperation } from "./create-webhook-endpoint";
import { deleteDocumentOperation } from "./delete-document";
import { deleteWebhookEndpointOperation } from "./delete-webhook-endpoint";
import { atEveryAddress } from "./document-address";
import { documentEftiConsignmentOperation } from "./document-efti-consignment";
import { documentEftiDatasetsOperation } from "./document-efti-datasets";
import { documentPdfOperation } from "./document-pdf";
import { documentQrCodeOperation } from "./document-qr-code";
import { documentStatusOperation } from "./document-status";
import { getDocumentOperation } from "./get-document";
import { getEventOperation } from "./get-event";
import { getWebhookEndpointOperation } from "./get-webhook-endpoint";
import { listDocumentsOperation } from "./list-documents";
import { listEventsOperation } from "./list-events";
import { listWebhookEndpointsOperation } from "./list-webhook-endpoints";
import { QR_LINK_OPERATIONS } from "./qr-links";
import { redeliverEventOperation } from "./redeliver-event";
import { rotateWebhookSecretOperation } from "./rotate-webhook-secret";
import { testWebhookEndpointOperation } from "./test-webhook-endpoint";
import { updateWebhookEndpointOperation } from "./update-webhook-endpoint";
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
    documentEftiDatasetsOperation,
    documentEftiConsignmentOperation,
  ]),
  listWebhookEndpointsOperation,
  createWebhookEndpointOperation,
  getWebhookEndpointOperation,
  updateWebhookEndpointOperation,
  deleteWebhookEndpointOperation,
  rotateWebhookSecretOperation,
  testWebhookEndpointOperation,
  listEventsOperation,
  getEventOperation,
  redeliverEventOperation,
  createDemoTokenOperation,
  ...QR_LINK_OPERATIONS,
];
