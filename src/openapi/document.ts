import * as z from "zod";
import { listQuerySchema } from "../schemas/list-query";
import { qrImageQuerySchema } from "../schemas/qr-image-query";
import { componentSchemas, schemaRef } from "./components";
import {
  exampleDemoDocument,
  exampleDemoToken,
  exampleDocument,
  exampleList,
  exampleRequest,
} from "./examples";
import {
  type DocumentedErrorStatus,
  headOf,
  jsonResponse,
  pdfResponse,
  qrImageResponse,
  responses,
} from "./responses";

// Error statuses per operation: spec section 7, plus the 503 that any
// operation answers when a dependency is unreachable (decisions.md), or the
// demo is switched off.
const WRITE: DocumentedErrorStatus[] = [
  400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503,
];
const LIST: DocumentedErrorStatus[] = [401, 403, 422, 429, 500, 503];
const READ: DocumentedErrorStatus[] = [401, 403, 404, 429, 500, 503];
const QR_IMAGE: DocumentedErrorStatus[] = [...READ, 422];
const QR: DocumentedErrorStatus[] = [404, 429, 500, 503];
const DEMO_TOKEN: DocumentedErrorStatus[] = [400, 413, 415, 422, 429, 500, 503];

const BEARER = [{ bearer: [] }];
const QR_SECRET = [{ qrSecret: [] }];

const documentResponse = (description: string) => ({
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

const jsonBody = (
  schema: "DocumentRequest" | "DeleteRequest",
  example: unknown,
) => ({
  required: true,
  content: { "application/json": { schema: schemaRef(schema), example } },
});

/** A document's path parameter: its uuid, or its reference. */
const ADDRESSES = {
  uuid: {
    path: "/api/v1/documents/{uuid}",
    suffix: "",
    parameter: {
      name: "uuid",
      in: "path",
      required: true,
      schema: { type: "string", format: "uuid" },
    },
  },
  reference: {
    path: "/api/v1/documents/ref/{reference}",
    suffix: "ByReference",
    parameter: {
      name: "reference",
      in: "path",
      required: true,
      description:
        "The document's own reference; one that cannot be a reference is a 404.",
      schema: { type: "string", pattern: "^[A-Za-z0-9-]+$", maxLength: 120 },
    },
  },
} as const;

function documentPaths(address: (typeof ADDRESSES)[keyof typeof ADDRESSES]) {
  const parameters = [address.parameter];
  const id = (name: string) => `${name}${address.suffix}`;
  return {
    [address.path]: {
      parameters,
      get: {
        operationId: id("getDocument"),
        summary: "Read a document (within 24 hours of its creation)",
        tags: ["documents"],
        security: BEARER,
        responses: responses({ 200: documentResponse("The document.") }, READ),
      },
      put: {
        operationId: id("rectifyDocument"),
        summary: "Correct a document by issuing a new version",
        description:
          "The whole corrected data, no partial updates. The corrected version and its QR link stay valid. The same correction sent again within 24 hours answers the existing one.",
        tags: ["documents"],
        security: BEARER,
        requestBody: jsonBody("DocumentRequest", {
          ...exampleRequest,
          reference: "PED-2026-0001-R1",
        }),
        responses: responses(
          {
            200: documentResponse(
              "The new version (or the existing one, for a retry).",
            ),
          },
          WRITE,
          { issuing: true },
        ),
      },
      delete: {
        operationId: id("deleteDocument"),
        summary: "Delete a document within 2 hours of its creation",
        description:
          "Only the latest version, never handed over nor used, before its QR link was first opened.",
        tags: ["documents"],
        security: BEARER,
        requestBody: jsonBody("DeleteRequest", {
          reason: "El camión no salió: pedido anulado.",
          confirm_not_delivered: true,
          confirm_not_used: true,
        }),
        responses: responses({ 204: { description: "Deleted." } }, WRITE),
      },
    },
    [`${address.path}/status`]: {
      parameters,
      get: {
        operationId: id("getDocumentStatus"),
        summary: "Whether a document is active or deleted",
        tags: ["documents"],
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
    },
    [`${address.path}/pdf`]: withHead({
      parameters,
      get: {
        operationId: id("downloadDocumentPdf"),
        summary: "Download the exact stored PDF",
        tags: ["documents"],
        security: BEARER,
        responses: responses(
          { 200: pdfResponse("The PDF, as an attachment.", "attachment") },
          READ,
        ),
      },
    }),
    [`${address.path}/qr`]: withHead({
      parameters,
      get: {
        operationId: id("getDocumentQrCode"),
        summary: "The QR code of the document's link, as an image",
        description:
          "The code printed on the PDF, alone: for the driver's phone or a message to the driver, who may show it instead of the PDF. It encodes `url`, secret `k` included, so share it like the link. Under the same rules as the PDF download.",
        tags: ["documents"],
        security: BEARER,
        parameters: queryParameters(qrImageQuerySchema),
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
  };
}

/** A path item with HEAD beside its GET (a PDF or an image). */
const withHead = <Item extends { get: Parameters<typeof headOf>[0] }>(
  item: Item,
) => ({ ...item, head: headOf(item.get) });

const qrPath = (operationId: string, summary: string) =>
  withHead({
    get: {
      operationId,
      summary,
      description:
        "No key: the secret `k` of the link authorizes this one document. Copy `k` exactly as returned in `url`.",
      tags: ["qr"],
      security: QR_SECRET,
      parameters: [
        {
          name: "uuid",
          in: "path",
          required: true,
          schema: { type: "string", format: "uuid" },
        },
        { name: "k", in: "query", required: true, schema: { type: "string" } },
      ],
      responses: responses(
        { 200: pdfResponse("The PDF, inline.", "inline") },
        QR,
      ),
    },
  });

/** A route's query parameters, from the schema it validates them with. */
function queryParameters(schema: z.ZodType) {
  const { properties = {} } = z.toJSONSchema(schema, { io: "input" });
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    schema,
  }));
}

function buildDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title:
        "DeCA: documento de control del transporte de mercancías por carretera",
      version: "1.0.0",
      description:
        "Issues, corrects, lists, reads, deletes and downloads the Spanish road transport control document (DeCA), with a PDF and a QR link. Every error is `{errors: [{field, code, message}]}`.",
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "documents", description: "Your documents (Bearer key)." },
      { name: "qr", description: "The QR links: the PDF without a key." },
      { name: "demo", description: "The public demo." },
    ],
    security: BEARER,
    paths: {
      "/api/v1/documents": {
        get: {
          operationId: "listDocuments",
          summary:
            "Your non-deleted documents of the last 24 hours, newest first",
          tags: ["documents"],
          security: BEARER,
          parameters: queryParameters(listQuerySchema),
          responses: responses(
            {
              200: jsonResponse(
                "A page of documents.",
                "DocumentList",
                exampleList,
              ),
            },
            LIST,
          ),
        },
        post: {
          operationId: "createDocument",
          summary: "Issue a document",
          description:
            "Sending the same body again with the same `reference` within 24 hours answers the original with 200 and issues nothing.",
          tags: ["documents"],
          security: BEARER,
          requestBody: jsonBody("DocumentRequest", exampleRequest),
          responses: responses(
            {
              201: documentResponse("Issued."),
              200: documentResponse(
                "A retry: the original result, nothing new issued.",
              ),
            },
            WRITE,
            { issuing: true },
          ),
        },
      },
      ...documentPaths(ADDRESSES.uuid),
      ...documentPaths(ADDRESSES.reference),
      "/api/v1/demo/tokens": {
        post: {
          operationId: "createDemoToken",
          summary: "A demo token (sk_demo_) for 24 hours, from this IP only",
          tags: ["demo"],
          security: [],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: schemaRef("DemoTokenRequest"),
                example: { document_locale: "es" },
              },
            },
          },
          responses: responses(
            {
              201: jsonResponse(
                "The token.",
                "DemoTokenResult",
                exampleDemoToken,
              ),
            },
            DEMO_TOKEN,
          ),
        },
      },
      "/d/{uuid}": qrPath("downloadDocumentByQr", "The PDF of a QR link"),
      "/demo/d/{uuid}": qrPath(
        "downloadDemoDocumentByQr",
        "The PDF of a demo QR link (until the demo session expires)",
      ),
    },
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "`Authorization: Bearer sk_test_…|sk_live_…|sk_demo_…`. Never in a URL or a client-side app.",
        },
        qrSecret: {
          type: "apiKey",
          in: "query",
          name: "k",
          description: "The secret of a QR link, exactly as returned in `url`.",
        },
      },
      schemas: componentSchemas(),
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildDocument>;

let built: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document, built once per isolate. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildDocument();
  return built;
}
