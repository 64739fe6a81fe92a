// A consignment's eFTI dataset id: a UUID derived from the document and the
// shipment's number, so that the same shipment always has the same id and
// nothing needs storing, and routable: a gate's dataset id names the shard,
// the millisecond and the shipment of its document (docs/efti.md, "Dataset
// ids").

/** Fixed forever: changing either would give every consignment another id. */
const LABEL_V1 = "deca:efti-dataset:v1";
const LABEL_V2 = "deca:efti-dataset:v2";

/** The shipment numbers a version 2 id can carry (10 bits); a document holds at most 100 (GROUPED_SHIPMENTS). */
export const MAX_ROUTABLE_SHIPMENT = 1023;

// A document uuid made since sharding: creation time, version 8, bucket
// (shard-routing.ts), then the RFC 9562 variant.
const SHARDED_UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sha256 = async (text: string): Promise<Uint8Array> =>
  new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );

const hexBytes = (hex: string): Uint8Array =>
  Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

function uuidText(bytes: Uint8Array): string {
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0"));
  return [
    hex.slice(0, 4),
    hex.slice(4, 6),
    hex.slice(6, 8),
    hex.slice(8, 10),
    hex.slice(10, 16),
  ]
    .map((group) => group.join(""))
    .join("-");
}

/** Version 1: the first 128 bits of SHA-256, with version 8 and the variant. */
async function datasetIdV1(
  documentUuid: string,
  shipmentNumber: number,
): Promise<string> {
  const digest = await sha256(
    `${LABEL_V1}\n${documentUuid}\n${shipmentNumber}`,
  );
  const bytes = digest.slice(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  return uuidText(bytes);
}

/**
 * Version 2: the document uuid's first 8 bytes (its creation time, version 8
 * and bucket), then the variant (2 bits), the shipment's number (10 bits)
 * and 52 bits of SHA-256(label, uuid, number): the low 4 bits of the
 * digest's first byte and its next 6 bytes.
 */
async function datasetIdV2(
  documentUuid: string,
  shipmentNumber: number,
): Promise<string> {
  const digest = await sha256(
    `${LABEL_V2}\n${documentUuid}\n${shipmentNumber}`,
  );
  const bytes = new Uint8Array(16);
  bytes.set(hexBytes(documentUuid.replaceAll("-", "").slice(0, 16)));
  bytes[8] = 0x80 | (shipmentNumber >> 4);
  bytes[9] = ((shipmentNumber & 0x0f) << 4) | ((digest[0] as number) & 0x0f);
  bytes.set(digest.subarray(1, 7), 10);
  return uuidText(bytes);
}

/**
 * The dataset id of shipment `shipmentNumber` (1 for the first) of the
 * document `documentUuid`, a UUID version 8 (RFC 9562): version 2, which a
 * gate's request is routed by, for a document made since sharding; version 1
 * for one issued before (a version 4 uuid), which no gate finds.
 */
export function datasetId(
  documentUuid: string,
  shipmentNumber: number,
): Promise<string> {
  if (
    !SHARDED_UUID.test(documentUuid) ||
    shipmentNumber < 1 ||
    shipmentNumber > MAX_ROUTABLE_SHIPMENT
  ) {
    return datasetIdV1(documentUuid, shipmentNumber);
  }
  return datasetIdV2(documentUuid, shipmentNumber);
}

/** Where a version 2 dataset id points: its document's uuids and its shipment. */
export interface DatasetLocation {
  /** The first 19 characters every candidate document's uuid shares (`tttttttt-tttt-8bbb-`). */
  uuidPrefix: string;
  shipmentNumber: number;
}

/**
 * What a dataset id says of its document, or null when it cannot be a
 * version 2 id (malformed, not version 8, shipment 0). The document is one
 * of those whose uuid starts with `uuidPrefix` (created in that millisecond
 * in that bucket) for which `datasetId(uuid, shipmentNumber)` gives the id.
 */
export function datasetLocation(id: string): DatasetLocation | null {
  if (!SHARDED_UUID.test(id)) return null;
  const byte8 = Number.parseInt(id.slice(19, 21), 16);
  const byte9 = Number.parseInt(id.slice(21, 23), 16);
  const shipmentNumber = ((byte8 & 0x3f) << 4) | (byte9 >> 4);
  if (shipmentNumber < 1) return null;
  return { uuidPrefix: id.slice(0, 19), shipmentNumber };
}
