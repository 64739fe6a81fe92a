import * as z from "zod";
import type { OperationContract } from "../http/operation";
import { OPERATIONS } from "../http/operations";
import { componentSchemas, schemaRefOf } from "./components";
import { headOf } from "./responses";
import { BEARER, SECURITY_SCHEMES } from "./security";

/** OpenAPI parameters of a schema of path or query parameters. */
function parametersOf(schema: z.ZodObject, where: "path" | "query") {
  const { properties = {}, required = [] } = z.toJSONSchema(schema, {
    io: "input",
  });
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property as { description?: string };
    return {
      name,
      in: where,
      required: where === "path" || required.includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** How a document names a body's schema: a reference to its components, or inlined. */
type BodySchemaOf = (schema: z.ZodType) => object;

/** The document's operation object of one operation. */
function operationObject(
  { body, query, doc }: OperationContract,
  bodySchemaOf: BodySchemaOf,
) {
  const { parameters = [], responses, ...words } = doc;
  const allParameters = [
    ...(query ? parametersOf(query, "query") : []),
    ...parameters,
  ];
  return {
    ...words,
    ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: bodySchemaOf(body.schema),
                example: body.example,
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** `paths`: each path's parameters, then its operations. */
export function pathItems(
  operations: readonly OperationContract[],
  bodySchemaOf: BodySchemaOf = schemaRefOf,
) {
  const items: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const item = items[operation.path] ?? {
      ...(operation.params
        ? { parameters: parametersOf(operation.params, "path") }
        : {}),
    };
    const object = operationObject(operation, bodySchemaOf);
    item[operation.method] = object;
    if (operation.head) item.head = headOf(object);
    items[operation.path] = item;
  }
  return items;
}

function buildDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title:
        "DeCA: documento de control del transporte de mercancías por carretera",
      version: "1.0.0",
      description:
        "Issues, corrects, lists, reads, deletes and downloads the Spanish road transport control document (DeCA), with a PDF and a QR link. Every error is `{errors: [{field, code, message}]}`.",
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "documents", description: "Your documents (Bearer key)." },
      { name: "qr", description: "The QR links: the PDF without a key." },
      { name: "demo", description: "The public demo." },
    ],
    security: BEARER,
    paths: pathItems(OPERATIONS),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: componentSchemas(),
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildDocument>;

let built: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document, built once per isolate. */
export function openApiDocument(): OpenApiDocument {
  built ??= buildDocument();
  return built;
}
