import * as z from "zod";
import { deleteRequestSchema } from "../schemas/delete-request";
import { demoTokenRequestSchema } from "../schemas/demo-token-request";
import { demoTokenResultSchema } from "../schemas/demo-token-result";
import { documentRequestSchema } from "../schemas/document-request";
import {
  anyDocumentResultSchema,
  demoDocumentResultSchema,
  documentDataSchema,
  documentListSchema,
  documentResultSchema,
  documentStatusSchema,
  documentSummarySchema,
  documentUuid,
  timestamp,
} from "../schemas/document-result";
import { errorBodySchema } from "../schemas/error-body";
import { printedTextSchema } from "../schemas/text";

/** The named schemas of the document, under `#/components/schemas/`. */
const NAMED = {
  DocumentRequest: documentRequestSchema,
  DeleteRequest: deleteRequestSchema,
  DemoTokenRequest: demoTokenRequestSchema,
  Document: documentResultSchema,
  DemoDocument: demoDocumentResultSchema,
  DocumentResult: anyDocumentResultSchema,
  DocumentData: documentDataSchema,
  DocumentSummary: documentSummarySchema,
  DocumentList: documentListSchema,
  DocumentStatus: documentStatusSchema,
  DemoTokenResult: demoTokenResultSchema,
  ErrorBody: errorBodySchema,
  Uuid: documentUuid,
  Timestamp: timestamp,
  PrintedText: printedTextSchema,
} satisfies Record<string, z.ZodType>;

export type SchemaName = keyof typeof NAMED;

export const schemaRef = (name: SchemaName) => ({
  $ref: `#/components/schemas/${name}`,
});

/** The reference to a schema of the contract, which must be a named one. */
export function schemaRefOf(schema: z.ZodType) {
  const entry = Object.entries(NAMED).find(([, named]) => named === schema);
  if (!entry) throw new Error("The OpenAPI document names no such schema");
  return schemaRef(entry[0] as SchemaName);
}

/**
 * JSON Schema (2020-12, OpenAPI 3.1's dialect) of every named schema, as
 * zod sees its input: what a client may send, and a looser but true
 * description of what the service answers, whose schemas have no transforms.
 */
export function componentSchemas(): Record<string, object> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED)) {
    registry.add(schema, { id });
  }
  const { schemas } = z.toJSONSchema(registry, {
    io: "input",
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema, $id, ...schema }]) => [
      id,
      schema,
    ]),
  );
}
