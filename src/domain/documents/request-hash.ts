import {
  type DocumentRequest,
  splitRequest,
} from "../../schemas/document-request";
import { sha256Hex } from "../sha256";

/**
 * JSON with every object's keys sorted, so that key order never matters.
 * Every own key counts, `__proto__` included. Recursive, so only for
 * validated requests, whose depth the schema bounds (metadata: 8 levels).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) =>
          `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * SHA-256 (hex) of the canonical normalized data plus metadata: two requests
 * with the same hash are the same request, however their keys were ordered.
 * Stored hashes answer retries, so a field added to the body must leave the
 * normalized output of a body without it unchanged: how, in
 * documentRequestSchema's comment (src/schemas/document-request.ts).
 */
export function requestHash(request: DocumentRequest): Promise<string> {
  return sha256Hex(canonicalJson(splitRequest(request)));
}
