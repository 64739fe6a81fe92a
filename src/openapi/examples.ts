import {
  type DocumentRequest,
  documentRequestSchema,
  splitRequest,
} from "../schemas/document-request";

// Fictitious data only: valid check characters, no real company or plate.

/** A complete request body, as a haulier's software would send it. */
export const exampleRequest = {
  transport_date: "2026-11-21",
  shipper: {
    name: "Cerámicas Ejemplo SL",
    tax_country: "ES",
    tax_id: "B12345674",
    address: {
      street: "Calle Mayor 1",
      postal_code: "12001",
      city: "Castellón de la Plana",
      country: "ES",
    },
  },
  carrier: {
    name: "Transportes Ficticios SA",
    tax_country: "ES",
    tax_id: "12345678Z",
  },
  origin: {
    place: "Almacén Norte, muelle 4",
    street: "Polígono Industrial Sur",
    postal_code: "12006",
    city: "Castellón de la Plana",
    country: "ES",
  },
  destination: {
    place: "Centro logístico Levante",
    city: "Valencia",
    country: "ES",
  },
  goods: { description: "Palés de azulejos cerámicos", weight_kg: "12345.678" },
  vehicle: {
    country: "ES",
    registration: "1234BCD",
    trailer_country: "ES",
    trailer_registration: "R1234BCD",
  },
  reference: "PED-2026-0001",
  observations: "Carga frágil.",
  metadata: { order_id: 981 },
};

const EXAMPLE_UUID = "0b6c7a52-3f1e-4d8a-9c2b-5e4f3a2d1c0b";
const EXAMPLE_ORIGIN = "https://deca.example";

/** What the service answers for `exampleRequest`: its own normalization. */
export function exampleDocument() {
  const request: DocumentRequest = documentRequestSchema.parse(exampleRequest);
  const { data, metadata } = splitRequest(request);
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

export const exampleList = {
  data: [
    {
      uuid: EXAMPLE_UUID,
      reference: "PED-2026-0001",
      created_at: "2026-11-21T08:30:00.000Z",
      transport_date: "2026-11-21",
      rectifies_uuid: null,
    },
  ],
  meta: { current_page: 1, limit: 25, total: 1, last_page: 1 },
};

export const exampleDemoToken = {
  token: "sk_demo_4fJ8kQ2mZx7Rt1Vb9Nc3Hd6Lp0Ws5Ya",
  expires_at: "2026-11-22T08:00:00.000Z",
  document_locale: "es",
};

export const exampleError = (
  field: string | null,
  code: string,
  message: string,
) => ({ errors: [{ field, code, message }] });
