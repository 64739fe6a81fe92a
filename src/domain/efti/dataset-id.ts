// A consignment's eFTI dataset id: a UUID derived from the document and the
// shipment's number, so that the same shipment always has the same id and
// nothing needs storing (docs/efti.md, "Dataset ids").

/** Fixed forever: changing it would give every consignment another id. */
const LABEL = "deca:efti-dataset:v1";

/**
 * The dataset id of shipment `shipmentNumber` (1 for the first) of the
 * document `documentUuid`: a UUID version 8 (RFC 9562) made of the first
 * 128 bits of SHA-256(label, uuid, number), with its version and variant.
 */
export async function datasetId(
  documentUuid: string,
  shipmentNumber: number,
): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${LABEL}\n${documentUuid}\n${shipmentNumber}`),
  );
  const bytes = new Uint8Array(digest, 0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
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
