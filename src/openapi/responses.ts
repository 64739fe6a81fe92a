import type * as z from "zod";
import type { HeaderObject, ResponseObject } from "./operation-contract";

export const header = (
  description: string,
  type: HeaderObject["schema"]["type"],
): HeaderObject => ({ description, schema: { type } });

/** A JSON answer of `schema`, with its example. */
export const jsonResponse = (
  description: string,
  schema: z.ZodType,
  example?: unknown,
): ResponseObject => ({
  description,
  content: {
    "application/json": {
      schema,
      ...(example === undefined ? {} : { example }),
    },
  },
});

/** A PDF answer, as the document describes it. */
export const documentedPdf = (
  description: string,
  disposition: "inline" | "attachment",
): ResponseObject => ({
  description,
  headers: {
    "Content-Disposition": header(
      `\`${disposition}; filename="documento-control-{uuid}.pdf"\``,
      "string",
    ),
  },
  content: {
    "application/pdf": {
      schema: { type: "string", contentMediaType: "application/pdf" },
    },
  },
});

export const qrImageResponse = (description: string): ResponseObject => ({
  description,
  headers: {
    "Content-Disposition": header(
      '`inline; filename="documento-control-{uuid}-qr.svg"` (or `.png`)',
      "string",
    ),
  },
  content: {
    "image/svg+xml": {
      schema: { type: "string", contentMediaType: "image/svg+xml" },
    },
    "image/png": {
      schema: { type: "string", contentMediaType: "image/png" },
    },
  },
});

/**
 * The HEAD of a GET operation: the same statuses and headers, never a body,
 * and nothing recorded (docs/api.md).
 */
export function headOf<
  Operation extends {
    operationId: string;
    summary: string;
    responses: Record<string, { description: string; headers?: object }>;
  },
>(get: Operation) {
  return {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `${get.summary}: its headers only`,
    description:
      "The headers that a GET would answer, without the body. Records nothing: not a download, not a QR access.",
    responses: Object.fromEntries(
      Object.entries(get.responses).map(
        ([status, { description, headers }]) => [
          status,
          { description, ...(headers ? { headers } : {}) },
        ],
      ),
    ),
  };
}
