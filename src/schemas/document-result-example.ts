import { documentRequestSchema, splitRequest } from "./document-request";
import {
  exampleGroupedRequest,
  exampleRequest,
} from "./document-request-example";

/** The uuid of every example document. */
export const EXAMPLE_UUID = "0b6c7a52-3f1e-4d8a-9c2b-5e4f3a2d1c0b";
const EXAMPLE_ORIGIN = "https://deca.example";

/** An example request as the service normalizes it. */
const normalized = (body: unknown) =>
  splitRequest(documentRequestSchema.parse(body));

/** What the service answers for `exampleRequest`: its own normalization. */
export function exampleDocument() {
  const { data, metadata } = normalized(exampleRequest);
  return {
    uuid: EXAMPLE_UUID,
    reference: data.reference,
    created_at: "2026-11-21T08:30:00.000Z",
    url: `${EXAMPLE_ORIGIN}/d/${EXAMPLE_UUID}?k=Xq3v9Lr2Tn8Wb5Yc1Zd7Af`,
    pdf: {
      sha256:
        "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f",
      size_bytes: 48213,
      pages: 1,
      seal: {
        level: "B-B",
        certificate_subject:
          "CN=DeCA sello electrónico, organizationIdentifier=VATES-B12345678, O=Ejemplo Transportes SL, C=ES",
        timestamp: null,
      },
    },
    pdf_download_url: `${EXAMPLE_ORIGIN}/api/v1/documents/${EXAMPLE_UUID}/pdf`,
    rectifies_uuid: null,
    data,
    metadata,
    document_locale: "es",
  };
}

export function exampleDemoDocument() {
  const document = exampleDocument();
  const url = document.url.replace("/d/", "/demo/d/");
  return {
    ...document,
    url,
    demo: true,
    expires_at: "2026-11-22T08:00:00.000Z",
    qr_url: url,
    pdf_url: document.pdf_download_url,
  };
}

/** What the service answers for `exampleGroupedRequest`. */
export function exampleGroupedDocument() {
  const { data, metadata } = normalized(exampleGroupedRequest);
  const document = exampleDocument();
  return {
    ...document,
    reference: data.reference,
    pdf: { ...document.pdf, size_bytes: 51874 },
    data,
    metadata,
  };
}

/** What a dry run answers for `exampleRequest` and `exampleGroupedRequest`. */
export const exampleDryRuns = () =>
  [exampleDocument(), exampleGroupedDocument()].map(({ data, pdf }) => ({
    data,
    pdf: { pages: pdf.pages, size_bytes: pdf.size_bytes },
  }));
