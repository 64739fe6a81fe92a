// One binding call of `npm run bench:cpu` as it travels between the Node
// process (bench/binding-client.ts) and workerd (bench/binding-server.ts):
// JSON, bytes as `{ "$bytes": base64 }`. Imported by both sides, so it uses
// only what Node and workerd both have.

/** `method` of the binding named `binding`, with its arguments. */
export interface BindingCall {
  binding: string;
  method: string;
  args: unknown[];
}

/** A D1 statement as the client prepared and bound it. */
export interface WireStatement {
  sql: string;
  params: unknown[];
}

/** An R2 object's fields the service reads, and its bytes for a `get`. */
export interface WireObject {
  key: string;
  size: number;
  etag: string;
  customMetadata: Record<string, string>;
  httpMetadata: R2HTTPMetadata;
  bytes?: Uint8Array;
}

/** A cached answer of the Workers cache. */
export interface WireResponse {
  status: number;
  headers: [string, string][];
  bytes: Uint8Array;
}

const BYTES = "$bytes";

export type Base64 = {
  encode(bytes: Uint8Array): string;
  decode(text: string): Uint8Array;
};

/** `value` as JSON text, its byte arrays (and ArrayBuffers) in base64. */
export const toWire = (value: unknown, base64: Base64): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Uint8Array
      ? { [BYTES]: base64.encode(item) }
      : item instanceof ArrayBuffer
        ? { [BYTES]: base64.encode(new Uint8Array(item)) }
        : item,
  );

export const fromWire = <T>(text: string, base64: Base64): T =>
  JSON.parse(text, (_key, item: unknown) =>
    item !== null &&
    typeof item === "object" &&
    typeof (item as Record<string, unknown>)[BYTES] === "string"
      ? base64.decode((item as Record<string, string>)[BYTES] as string)
      : item,
  ) as T;
