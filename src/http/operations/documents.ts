import { createDocument } from "../../domain/documents/create-document";
import { deleteDocument } from "../../domain/documents/delete-document";
import { listDocuments } from "../../domain/documents/list";
import {
  downloadDocumentPdf,
  getDocument,
  getDocumentQrLink,
  getDocumentStatus,
} from "../../domain/documents/read-document";
import { rectifyDocument } from "../../domain/documents/rectify-document";
import { schemaRef } from "../../openapi/components";
import {
  exampleDemoDocument,
  exampleDocument,
  exampleList,
  exampleRequest,
} from "../../openapi/examples";
import {
  type DocumentedErrorStatus,
  documentedPdf,
  jsonResponse,
  qrImageResponse,
  responses,
} from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { deleteRequestSchema } from "../../schemas/delete-request";
import { referencePath, uuidPath } from "../../schemas/document-address";
import { documentRequestSchema } from "../../schemas/document-request";
import { listQuerySchema } from "../../schemas/list-query";
import { qrImageQuerySchema } from "../../schemas/qr-image-query";
import { callerBodyLimit } from "../body-limit";
import { requireCredential } from "../middleware/authenticate";
import { issuingLimit } from "../middleware/caller-limits";
import { defineOperation } from "../operation";
import { qrImage } from "../qr-image";
import { isHead, storedPdfResponse } from "../stored-pdf-response";

// Error statuses per operation: docs/api.md, Statuses of each operation, plus the 503 that any
// operation answers when a dependency is unreachable (docs/api.md, Errors), or the
// demo is switched off.
const WRITE: DocumentedErrorStatus[] = [
  400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503,
];
const LIST: DocumentedErrorStatus[] = [401, 403, 422, 429, 500, 503];
const READ: DocumentedErrorStatus[] = [401, 403, 404, 429, 500, 503];
const QR_IMAGE: DocumentedErrorStatus[] = [...READ, 422];

const TAGS = ["documents"];

const documentResultResponse = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: schemaRef("DocumentResult"),
      examples: {
        document: { summary: "A real document", value: exampleDocument() },
        demo: { summary: "A demo document", value: exampleDemoDocument() },
      },
    },
  },
});

const listDocumentsOperation = defineOperation({
  method: "get",
  path: "/api/v1/documents",
  query: listQuerySchema,
  middleware: [requireCredential],
  handle: async (c, { query }) =>
    c.json(await listDocuments(c.var.services, c.var.credential, query)),
  doc: {
    operationId: "listDocuments",
    summary: "Your non-deleted documents of the last 24 hours, newest first",
    tags: TAGS,
    security: BEARER,
    responses: responses(
      {
        200: jsonResponse("A page of documents.", "DocumentList", exampleList),
      },
      LIST,
    ),
  },
});

const createDocumentOperation = defineOperation({
  method: "post",
  path: "/api/v1/documents",
  body: {
    schema: documentRequestSchema,
    limit: callerBodyLimit,
    example: exampleRequest,
  },
  middleware: [requireCredential, issuingLimit],
  handle: async (c, { body }) => {
    const { created, result } = await createDocument(
      c.var.services,
      c.var.credential,
      body,
    );
    return c.json(result, created ? 201 : 200);
  },
  doc: {
    operationId: "createDocument",
    summary: "Issue a document",
    description:
      "Sending the same body again with the same `reference` within 24 hours answers the original with 200 and issues nothing. The PDF prints the labels in the organization's `document_locale` with the Spanish beside them (Spanish only for `es`), every character of the data with a real glyph, and the time of issue in the local time of the origin with its UTC offset (`Atlantic/Canary` when `origin.postal_code` starts with 35 or 38, otherwise `Europe/Madrid`), for example `2026-11-23 14:16 (UTC+01:00, hora peninsular)`; the JSON times stay in UTC.",
    tags: TAGS,
    security: BEARER,
    responses: responses(
      {
        201: documentResultResponse("Issued."),
        200: documentResultResponse(
          "A retry: the original result, nothing new issued.",
        ),
      },
      WRITE,
      { issuing: true },
    ),
  },
});

/** Where a document is named: by its uuid or by its own reference. */
interface Address {
  path: string;
  params: typeof uuidPath | typeof referencePath;
  operationId: (name: string) => string;
}

/**
 * docs/api.md, References: every operation on one document answers at its uuid and at
 * its reference, so each is defined once for an address and served at both.
 * References first: a uuid is never "ref", while a reference may be "pdf",
 * "status" or "qr", which the uuid routes would otherwise take.
 */
const ADDRESSES: Address[] = [
  {
    path: "/api/v1/documents/ref/{reference}",
    params: referencePath,
    operationId: (name) => `${name}ByReference`,
  },
  {
    path: "/api/v1/documents/{uuid}",
    params: uuidPath,
    operationId: (name) => name,
  },
];

function oneDocumentOperations({ path, params, operationId }: Address) {
  return [
    defineOperation({
      method: "get",
      path,
      params,
      middleware: [requireCredential],
      handle: async (c, input) =>
        c.json(
          await getDocument(c.var.services, c.var.credential, input.params),
        ),
      doc: {
        operationId: operationId("getDocument"),
        summary: "Read a document (within 24 hours of its creation)",
        tags: TAGS,
        security: BEARER,
        responses: responses(
          { 200: documentResultResponse("The document.") },
          READ,
        ),
      },
    }),
    defineOperation({
      method: "put",
      path,
      params,
      body: {
        schema: documentRequestSchema,
        limit: callerBodyLimit,
        example: { ...exampleRequest, reference: "PED-2026-0001-R1" },
      },
      middleware: [requireCredential, issuingLimit],
      handle: async (c, input) =>
        c.json(
          await rectifyDocument(
            c.var.services,
            c.var.credential,
            input.params,
            input.body,
          ),
        ),
      doc: {
        operationId: operationId("rectifyDocument"),
        summary: "Correct a document by issuing a new version",
        description:
          "The whole corrected data, no partial updates. The corrected version and its QR link stay valid. The same correction sent again within 24 hours answers the existing one. Its PDF names the version it rectifies and lists the printed fields whose normalized values changed, a change of vehicle as such (Orden FOM/2861/2012, art. 6 g).",
        tags: TAGS,
        security: BEARER,
        responses: responses(
          {
            200: documentResultResponse(
              "The new version (or the existing one, for a retry).",
            ),
          },
          WRITE,
          { issuing: true },
        ),
      },
    }),
    defineOperation({
      method: "delete",
      path,
      params,
      body: {
        schema: deleteRequestSchema,
        limit: callerBodyLimit,
        example: {
          reason: "El camión no salió: pedido anulado.",
          confirm_not_delivered: true,
          confirm_not_used: true,
        },
      },
      middleware: [requireCredential],
      handle: async (c, input) => {
        await deleteDocument(
          c.var.services,
          c.var.credential,
          input.params,
          input.body,
        );
        return c.body(null, 204);
      },
      doc: {
        operationId: operationId("deleteDocument"),
        summary: "Delete a document within 2 hours of its creation",
        description:
          "Only the latest version, never handed over nor used, before its QR link was first opened.",
        tags: TAGS,
        security: BEARER,
        responses: responses({ 204: { description: "Deleted." } }, WRITE),
      },
    }),
    defineOperation({
      method: "get",
      path: `${path}/status`,
      params,
      middleware: [requireCredential],
      handle: async (c, input) =>
        c.json(
          await getDocumentStatus(
            c.var.services,
            c.var.credential,
            input.params,
          ),
        ),
      doc: {
        operationId: operationId("getDocumentStatus"),
        summary: "Whether a document is active or deleted",
        tags: TAGS,
        security: BEARER,
        responses: responses(
          {
            200: jsonResponse("The status.", "DocumentStatus", {
              status: "active",
            }),
          },
          READ,
        ),
      },
    }),
    defineOperation({
      method: "get",
      path: `${path}/pdf`,
      params,
      head: true,
      middleware: [requireCredential],
      handle: async (c, input) =>
        storedPdfResponse(
          await downloadDocumentPdf(
            c.var.services,
            c.var.credential,
            input.params,
            !isHead(c.req.raw),
          ),
          "attachment",
        ),
      doc: {
        operationId: operationId("downloadDocumentPdf"),
        summary: "Download the exact stored PDF",
        tags: TAGS,
        security: BEARER,
        responses: responses(
          { 200: documentedPdf("The PDF, as an attachment.", "attachment") },
          READ,
        ),
      },
    }),
    defineOperation({
      method: "get",
      path: `${path}/qr`,
      params,
      query: qrImageQuerySchema,
      head: true,
      middleware: [requireCredential],
      handle: async (c, input) => {
        const link = await getDocumentQrLink(
          c.var.services,
          c.var.credential,
          input.params,
        );
        const image = await qrImage(link, input.query.format);
        return c.body(image.bytes, 200, image.headers);
      },
      doc: {
        operationId: operationId("getDocumentQrCode"),
        summary: "The QR code of the document's link, as an image",
        description:
          "The code printed on the PDF, alone: for the driver's phone or a message to the driver, who may show it instead of the PDF. It encodes `url`, secret `k` included, so share it like the link. Under the same rules as the PDF download.",
        tags: TAGS,
        security: BEARER,
        responses: responses(
          {
            200: qrImageResponse(
              "The QR code: SVG, or a PNG at least 600 pixels square, quiet zone included.",
            ),
          },
          QR_IMAGE,
        ),
      },
    }),
  ];
}

export const documentOperations = [
  listDocumentsOperation,
  createDocumentOperation,
  ...ADDRESSES.flatMap(oneDocumentOperations),
];
