// The documents the benchmarks render and issue: the shared fixtures, plus the
// largest document the API accepts.
import {
  FULL_DOCUMENT,
  groupedDocument,
  ISSUE,
  LONG_DOCUMENT,
  longText,
  MINIMAL_DOCUMENT,
} from "../fixtures/documents";
import type { DocumentPdfInput } from "../src/domain/documents/render-port";
import type { DocumentData } from "../src/schemas/document-request";

export const renderInput = (data: DocumentData): DocumentPdfInput => ({
  data,
  ...ISSUE,
  locale: "es",
  environment: "live",
});

export const RENDER_FIXTURES = {
  minimal: renderInput(MINIMAL_DOCUMENT),
  full: renderInput(FULL_DOCUMENT),
  long: renderInput(LONG_DOCUMENT),
  /** A distribution route: a grouped document of 40 shipments. */
  grouped: renderInput(groupedDocument(40)),
} as const;

export type FixtureName = keyof typeof RENDER_FIXTURES;

/**
 * The full document with texts Noto Sans cannot print, so that issuing
 * loads fallback fonts (src/domain/documents/fallback-fonts.ts): Japanese
 * and Chinese (the 10 MB CJK font), Arabic and Hebrew, and every family.
 */
export const FALLBACK_DOCUMENTS = {
  cjk: {
    ...FULL_DOCUMENT,
    shipper: { ...FULL_DOCUMENT.shipper, name: "東京精密機器株式会社" },
    goods: {
      ...FULL_DOCUMENT.goods,
      description: "精密機器部品、木箱入り 24 箱 / 精密仪器零件，木箱包装",
    },
  },
  arabic: {
    ...FULL_DOCUMENT,
    observations:
      "Entregar a مرحبا 42 y a שלום, puerta 7. تسليم في المستودع رقم ٣",
  },
  world: {
    ...FULL_DOCUMENT,
    shipper: { ...FULL_DOCUMENT.shipper, name: "Cerámicas 株式会社" },
    goods: {
      ...FULL_DOCUMENT.goods,
      description: "ひらがな カタカナ 한국어 상품 ™ № ✓ → 😀",
    },
    observations: "Entregar a مرحبا 42 y a שלום, puerta 7.",
  },
} as const satisfies Record<string, DocumentData>;

export type FallbackFixtureName = keyof typeof FALLBACK_DOCUMENTS;

/** A document of the benchmarks as a client sends it, with a little metadata. */
export const benchRequest = (
  name: "full" | FallbackFixtureName,
): Record<string, unknown> => ({
  ...structuredClone(
    name === "full" ? FULL_DOCUMENT : FALLBACK_DOCUMENTS[name],
  ),
  metadata: { order: { id: 981, lines: [1, 2] }, erp: "SAP" },
});

/** A name-like text of exactly `length` characters. */
const filled = (length: number): string => longText(length);

/** 16 KiB of metadata as compact JSON, exactly the limit. */
function largestMetadata(): Record<string, unknown> {
  const metadata: Record<string, unknown> = { notes: "" };
  const size = JSON.stringify(metadata).length;
  metadata.notes = "x".repeat(16 * 1024 - size);
  return metadata;
}

/** A request body with every text field at its maximum length, and 16 KiB metadata. */
export function largestRequest(): Record<string, unknown> {
  const address = () => ({
    street: filled(255),
    postal_code: filled(255),
    city: filled(255),
    country: "ES",
  });
  return {
    transport_date: "2026-11-23",
    shipper: {
      name: filled(255),
      tax_country: "PL",
      tax_id: "7".repeat(32),
      address: address(),
    },
    carrier: {
      name: filled(255),
      tax_country: "RO",
      tax_id: "R".repeat(32),
      address: address(),
    },
    origin: { place: filled(255), ...address() },
    destination: { place: filled(255), ...address() },
    goods: { description: filled(2000), weight_kg: "99999999.9999" },
    vehicle: {
      country: "PL",
      registration: "W".repeat(20),
      trailer_country: "PL",
      trailer_registration: "T".repeat(20),
    },
    reference: "R".repeat(120),
    special_authorization: { number: filled(255), issuer: filled(255) },
    observations: filled(4000),
    metadata: largestMetadata(),
  };
}

/** The full one-page document as a client sends it, with a little metadata. */
export const fullRequest = (): Record<string, unknown> => benchRequest("full");
