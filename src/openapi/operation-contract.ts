import type * as z from "zod";

// What the OpenAPI documents read of an operation. The HTTP layer defines
// each operation (src/http/operation.ts) and hands its table down to the
// builders here, which never import it.

type Method = "get" | "put" | "patch" | "post" | "delete";

/** A JSON Schema, or a zod schema the document turns into one. */
export type SchemaLike = z.ZodType | object;

export interface Example {
  summary: string;
  value: unknown;
}

interface MediaObject {
  schema: SchemaLike;
  example?: unknown;
  examples?: Record<string, Example>;
}

export interface HeaderObject {
  description: string;
  schema: { type: "string" | "integer" };
}

/** An OpenAPI response object, as far as these documents use it. */
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaObject>;
}

/** A parameter the schemas do not describe (a QR secret). */
export interface ParameterObject {
  name: string;
  in: "query" | "header";
  required: boolean;
  description: string;
  schema: object;
}

/** A JSON body: its schema and what /docs offers to send. */
export interface BodyContract {
  schema: z.ZodType;
  /** The first one is what "Try it out" sends. */
  examples: Record<string, Example>;
  /** A body the request may leave out, which then means `{}`. */
  optional?: true;
}

/**
 * An operation as the documents describe it: its method, path (`{name}`
 * parameters), the schemas of what it takes, and its words and answers.
 */
export interface OperationContract {
  method: Method;
  path: string;
  /** Path parameters; a value they refuse names no document: 404. */
  params?: z.ZodObject;
  /** Query parameters, validated: 422 listing every error. */
  query?: z.ZodObject;
  body?: BodyContract;
  /** A GET whose HEAD the document describes too (a PDF, an image). */
  head?: true;
  /**
   * Its success answer names a resource: a path parameter's name, and the
   * JSON pointer of its value in the body. The document links the answer to
   * every operation addressed by these names alone.
   */
  names?: Record<string, string>;
  doc: {
    operationId: string;
    summary: string;
    description: string;
    tags: string[];
    security: Record<string, string[]>[];
    parameters?: ParameterObject[];
    responses: Record<string, ResponseObject>;
  };
}
