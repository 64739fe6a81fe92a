import * as z from "zod";
import { component } from "./component";
import { documentLocaleSchema } from "./document-locale";
import {
  groupedShipmentsDataSchema,
  singleShipmentDataSchema,
} from "./document-request";
import { warningsField } from "./warning";

// The responses' shapes (docs/api.md, Document result, List, Reading and status), for the OpenAPI document. The
// transport data is described by the request schema itself: the normalized
// `data` is always a valid request without metadata.

export const timestamp = component(
  "Timestamp",
  z.iso.datetime().meta({
    description: "UTC, ISO 8601 with milliseconds.",
    examples: ["2026-11-21T08:30:00.000Z"],
  }),
);

const documentUuid = component(
  "Uuid",
  z.uuid().meta({ examples: ["0b6c7a52-3f1e-4d8a-9c2b-5e4f3a2d1c0b"] }),
);

/** The accepted request, normalized: the `data` of a result. */
const documentDataSchema = component(
  "DocumentData",
  z.xor([singleShipmentDataSchema, groupedShipmentsDataSchema]).meta({
    description:
      "The accepted request, normalized: upper-cased codes, normalized tax ids and plates, weight as a string, null for omitted optional fields. One shipment (`origin`, `destination`, `goods`) or a grouped document (`shipments`, with no `shipments` key on a single one).",
  }),
);

/** PAdES baseline levels of a PDF's seal (docs/pdf.md "The seal"). */
export const SEAL_LEVELS = ["B-B", "B-T"] as const;

/** What a document's PDF is, issued or only rendered by a dry run. */
const pdfFacts = {
  size_bytes: z.int().positive(),
  pages: z.int().positive(),
};

/** Variant 1: a real document (sk_test_ or sk_live_). */
const documentResultSchema = component(
  "Document",
  z
    .strictObject({
      uuid: documentUuid,
      reference: z.string().nullable(),
      created_at: timestamp,
      url: z.url().meta({
        description:
          "QR link with its secret `k`: opens the PDF without a key. Do not log or publish it.",
      }),
      pdf: z.strictObject({
        sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .meta({ description: "SHA-256 of the exact stored PDF bytes." }),
        ...pdfFacts,
        seal: z
          .strictObject({
            level: z.enum(SEAL_LEVELS).meta({
              description:
                "PAdES baseline level: `B-T` carries a time-stamping authority's token, `B-B` does not (none configured, or it did not answer in time).",
            }),
            certificate_subject: z.string().meta({
              description:
                "The seal certificate's subject, most specific first (`CN=…, O=…, C=ES`); a test or demo document's names PRUEBAS or DEMO.",
            }),
            timestamp: timestamp.nullable().meta({
              description: "The timestamp token's time; null at `B-B`.",
            }),
          })
          .nullable()
          .meta({
            description:
              "The service's electronic seal, a PAdES signature inside the PDF that any PDF reader verifies offline (docs/pdf.md); null for a document issued before PDFs were sealed, served as it was.",
          }),
      }),
      pdf_download_url: z.url().meta({
        description:
          "Authenticated download: the owning key's Bearer, within 24 hours of creation.",
      }),
      rectifies_uuid: documentUuid.nullable().meta({
        description: "The corrected document; null for an initial issue.",
      }),
      data: documentDataSchema,
      metadata: z.record(z.string(), z.unknown()).nullable(),
      document_locale: documentLocaleSchema,
      warnings: warningsField,
    })
    .meta({ title: "Document" }),
);

/** Variant 2: a demo document, with its expiry and the link aliases. */
const demoDocumentResultSchema = component(
  "DemoDocument",
  documentResultSchema
    .extend({
      demo: z.literal(true),
      expires_at: timestamp,
      qr_url: z.url().meta({ description: "Alias of url." }),
      pdf_url: z.url().meta({ description: "Alias of pdf_download_url." }),
    })
    .meta({ title: "DemoDocument" }),
);

/** Exactly one variant matches: a real result has none of the demo fields. */
export const anyDocumentResultSchema = component(
  "DocumentResult",
  z.xor([documentResultSchema, demoDocumentResultSchema]).meta({
    description:
      "Exactly one variant matches: a demo document has `demo: true`, `expires_at`, `qr_url` and `pdf_url`; a real one has none of them (so no discriminator: the real variant has no `demo` property).",
  }),
);

/** What a dry run answers (docs/api.md, Dry run). */
export const dryRunResultSchema = component(
  "DryRunResult",
  z
    .strictObject({
      data: documentDataSchema,
      pdf: z.strictObject(pdfFacts).meta({
        description:
          "The PDF rendered as a create would render it: its page count and size in bytes (the issued one's size may differ slightly: it carries its own uuid and QR link).",
      }),
      warnings: warningsField,
    })
    .meta({
      description:
        "What a create of the same body would hold as `data`, the PDF it would render and its warnings; nothing is issued.",
    }),
);

const documentSummarySchema = component(
  "DocumentSummary",
  z.strictObject({
    uuid: documentUuid,
    reference: z.string().nullable(),
    created_at: timestamp,
    transport_date: z.iso.date(),
    rectifies_uuid: documentUuid.nullable(),
  }),
);

export const documentListSchema = component(
  "DocumentList",
  z.strictObject({
    data: z.array(documentSummarySchema),
    meta: z.strictObject({
      current_page: z.int().min(1),
      limit: z.int().min(1).max(100),
      total: z.int().min(0),
      last_page: z.int().min(1),
    }),
  }),
);

export const documentStatusSchema = component(
  "DocumentStatus",
  z.strictObject({ status: z.enum(["active", "deleted"]) }),
);

export type RealDocumentResult = z.output<typeof documentResultSchema>;
export type DocumentResult = z.output<typeof anyDocumentResultSchema>;
export type DryRunResult = z.output<typeof dryRunResultSchema>;
export type DocumentList = z.output<typeof documentListSchema>;
