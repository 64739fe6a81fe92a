import * as z from "zod";
import { oncePer } from "../once-per";
import { componentRef, componentSchemas } from "./components";
import { linksFrom } from "./links";
import type { OperationContract, SchemaLike } from "./operation-contract";
import { headOf } from "./responses";
import { BEARER, SECURITY_SCHEMES } from "./security";
import { webhookItems } from "./webhooks";

/** How a document writes a zod schema: a reference to its components, or inlined. */
export type SchemaOf = (schema: z.ZodType, io: "input" | "output") => object;

/** OpenAPI parameters of a schema of path or query parameters. */
function parametersOf(schema: z.ZodObject, where: "path" | "query") {
  const { properties = {}, required = [] } = z.toJSONSchema(schema, {
    io: "input",
    // zod drops a `default` given in metadata when it writes the input side
    // of a transform; a parameter's default is what an absent one means.
    override: ({ zodSchema, jsonSchema }) => {
      const meta = z.globalRegistry.get(zodSchema);
      if (meta?.default !== undefined) jsonSchema.default = meta.default;
    },
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

const written = (schema: SchemaLike, schemaOf: SchemaOf, io: "output") =>
  schema instanceof z.ZodType ? schemaOf(schema, io) : schema;

/** Responses with their schemas written, and links from what names a resource. */
function responsesOf(
  { responses }: OperationContract["doc"],
  links: Record<string, object>,
  schemaOf: SchemaOf,
) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const content = Object.fromEntries(
        Object.entries(response.content ?? {}).map(([type, media]) => [
          type,
          { ...media, schema: written(media.schema, schemaOf, "output") },
        ]),
      );
      const linked = status.startsWith("2") && Object.keys(links).length > 0;
      return [
        status,
        {
          ...response,
          ...(response.content ? { content } : {}),
          ...(linked ? { links } : {}),
        },
      ];
    }),
  );
}

/** The document's operation object of one operation of `operations`. */
function operationObject(
  operation: OperationContract,
  operations: readonly OperationContract[],
  schemaOf: SchemaOf,
) {
  const { body, query, names, doc } = operation;
  const { parameters = [], responses, ...words } = doc;
  const allParameters = [
    ...(query ? parametersOf(query, "query") : []),
    ...parameters,
  ];
  const links = names ? linksFrom(names, operations) : {};
  return {
    ...words,
    ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: body.optional !== true,
            content: {
              "application/json": {
                schema: schemaOf(body.schema, "input"),
                examples: body.examples,
              },
            },
          },
        }
      : {}),
    responses: responsesOf(doc, links, schemaOf),
  };
}

/** `paths`: each path's parameters, then its operations. */
export function pathItems(
  operations: readonly OperationContract[],
  schemaOf: SchemaOf,
) {
  const items: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const item = items[operation.path] ?? {
      ...(operation.params
        ? { parameters: parametersOf(operation.params, "path") }
        : {}),
    };
    const object = operationObject(operation, operations, schemaOf);
    item[operation.method] = object;
    if (operation.head) item.head = headOf(object);
    items[operation.path] = item;
  }
  return items;
}

function buildDocument(operations: readonly OperationContract[]) {
  return {
    openapi: "3.1.0",
    info: {
      title: "DeCA API: Spain's road transport control document",
      version: "1.0.0",
      description:
        "Issues, corrects, lists, reads, deletes and downloads the Spanish road transport control document (DeCA, documento de control), with a PDF and a QR link. Every error is `{errors: [{field, code, message}]}`. The rules in full: docs/api.md in the service's repository.",
      contact: CONTACT,
      license: LICENSE,
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "documents", description: "Your documents (Bearer key)." },
      {
        name: "webhooks",
        description:
          "Your webhook endpoints: where events are POSTed, signed (an API key, not a demo token).",
      },
      { name: "qr", description: "The QR links: the PDF without a key." },
      { name: "demo", description: "The public demo." },
      {
        name: "events",
        description:
          "What happened to your documents: listed, shown with their deliveries, redelivered (an API key, not a demo token), and as each is posted to your webhook endpoints.",
      },
    ],
    security: BEARER,
    paths: pathItems(operations, componentRef),
    webhooks: webhookItems(),
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: componentSchemas(),
    },
  };
}

/**
 * Who answers for the service. The message of a 500 carries the request id
 * to quote to them.
 */
export const CONTACT = { name: "DeCA service support" };

/**
 * The service is private (package.json) and grants no license. Linters
 * want an SPDX `identifier` or a `url`; SPDX names a license of one's own
 * `LicenseRef-…`.
 */
export const LICENSE = {
  name: "Proprietary: all rights reserved",
  identifier: "LicenseRef-Proprietary",
};

/** The OpenAPI 3.1 document of the operations handed in. */
// Built once per operation table and isolate.
export const openApiDocument = oncePer(buildDocument);
