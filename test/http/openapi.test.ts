import { type Schema, validate } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { createApiApp } from "../../src/api-app";
import { systemClock } from "../../src/clock";
import {
  DEFAULT_DEMO_DOCUMENTS_PER_TOKEN,
  DEFAULT_MAX_BODY_BYTES,
} from "../../src/config";
import { apiDocument, openApiRoutes } from "../../src/http/routes/openapi";
import {
  opsApiDocument,
  opsOpenApiRoutes,
} from "../../src/http/routes/ops-openapi";
import { pageRoutes } from "../../src/http/routes/pages";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { documentRequestSchema } from "../../src/schemas/document-request";
import { exampleDocument } from "../../src/schemas/document-result-example";
import { EVENT_TYPES } from "../../src/schemas/event";
import { contractViolation } from "../helpers/contract";
import { createCredential } from "../helpers/credentials";
import { documentsApi } from "../helpers/documents-api";
import { declaredGateOperations } from "../helpers/gate-contract";
import { indexedApiDocument } from "../helpers/indexed-document";
import { call, ORIGIN } from "../helpers/worker";

const document = apiDocument();

// docs/api.md, References (both addresses) and Statuses of each operation, plus the 503 that every
// operation answers when a dependency is unreachable (docs/api.md, Errors), and HEAD
// beside the GET of every PDF.
const WRITE = [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503];
const READ = [401, 403, 404, 429, 500, 503];
const QR = [200, 404, 429, 500, 503];
const CONTRACT: Record<string, Record<string, number[]>> = {
  "/api/v1/documents": {
    get: [200, 401, 403, 422, 429, 500, 503],
    post: [200, 201, ...WRITE],
  },
  // The dry run: a create's checks, no document to find or conflict with.
  "/api/v1/documents/validate": {
    post: [200, 400, 401, 403, 413, 415, 422, 429, 500, 503],
  },
  "/api/v1/documents/{uuid}": {
    get: [200, ...READ],
    put: [200, ...WRITE],
    delete: [204, ...WRITE],
  },
  "/api/v1/documents/{uuid}/status": { get: [200, ...READ] },
  "/api/v1/documents/{uuid}/pdf": {
    get: [200, ...READ],
    head: [200, ...READ],
  },
  // The QR image, whose `format` is validated (422).
  "/api/v1/documents/{uuid}/qr": {
    get: [200, ...READ, 422],
    head: [200, ...READ, 422],
  },
  // The document as eFTI data: its datasets, and each consignment's XML.
  "/api/v1/documents/{uuid}/efti": { get: [200, ...READ] },
  "/api/v1/documents/{uuid}/efti/{dataset_id}": { get: [200, ...READ] },
  "/api/v1/webhook-endpoints": {
    get: [200, 401, 403, 429, 500, 503],
    post: [201, 400, 401, 403, 409, 413, 415, 422, 429, 500, 503],
  },
  "/api/v1/webhook-endpoints/{endpoint_id}": {
    get: [200, ...READ],
    patch: [200, 400, 401, 403, 404, 413, 415, 422, 429, 500, 503],
    delete: [204, ...READ],
  },
  "/api/v1/webhook-endpoints/{endpoint_id}/rotate-secret": {
    post: [200, ...READ],
  },
  "/api/v1/webhook-endpoints/{endpoint_id}/test": { post: [202, ...READ] },
  // An API key's events: a demo token is a 403.
  "/api/v1/events": { get: [200, 401, 403, 422, 429, 500, 503] },
  "/api/v1/events/{id}": { get: [200, ...READ] },
  "/api/v1/events/{id}/redeliver": {
    post: [202, 400, 401, 403, 404, 413, 415, 422, 429, 500, 503],
  },
  "/api/v1/demo/tokens": { post: [201, 400, 413, 415, 422, 429, 500, 503] },
  "/d/{uuid}": { get: QR, head: QR },
  "/demo/d/{uuid}": { get: QR, head: QR },
};
for (const suffix of [
  "",
  "/status",
  "/pdf",
  "/qr",
  "/efti",
  "/efti/{dataset_id}",
]) {
  const byUuid = CONTRACT[`/api/v1/documents/{uuid}${suffix}`];
  if (byUuid) CONTRACT[`/api/v1/documents/ref/{reference}${suffix}`] = byUuid;
}

const METHODS = ["get", "head", "put", "patch", "post", "delete"] as const;

const operationAt = (path: string, method: string) => {
  const operation = (document.paths as Record<string, Record<string, unknown>>)[
    path
  ]?.[method];
  if (!operation) throw new Error(`No ${method} ${path} in the document`);
  return operation as {
    operationId: string;
    responses: Record<string, { description: string; links?: object }>;
    requestBody: {
      content: {
        "application/json": { examples: Record<string, { value: unknown }> };
      };
    };
  };
};

/** The values of an operation's request examples, in the document's order. */
const requestExamples = (path: string, method: string) =>
  Object.values(
    operationAt(path, method).requestBody.content["application/json"].examples,
  ).map((example) => example.value);
// Hono answers HEAD with the GET route, so HEAD has no route of its own.
const ROUTED = METHODS.filter((method) => method !== "head");

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });

describe("GET /api/v1/openapi.json", () => {
  it("serves the document without a key", async () => {
    const response = await call("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
  });
});

describe("the OpenAPI document", () => {
  it("describes exactly the operations the app serves, both ways, with the operations API in its own document", () => {
    const app = createApiApp({
      clock: systemClock,
      renderPdf: renderDocumentPdf,
    });
    // The documents themselves and the pages are not operations of the API.
    const site = new Set([
      ...openApiRoutes.routes.map((r) => `${r.method} /api/v1${r.path}`),
      ...opsOpenApiRoutes.routes.map((r) => `${r.method} /ops/v1${r.path}`),
      ...pageRoutes.routes.map((r) => `${r.method} ${r.path}`),
    ]);
    // One entry per handler: an operation's middleware repeat its route.
    const served = [
      ...new Set(
        app.routes
          .filter((route) => route.method !== "ALL")
          .map((route) => `${route.method} ${route.path}`),
      ),
    ].filter((route) => !site.has(route));
    const described = [
      ...Object.entries(document.paths),
      ...Object.entries(opsApiDocument().paths),
    ]
      .flatMap(([path, item]) =>
        ROUTED.filter((method) => method in item).map(
          (method) => `${method.toUpperCase()} ${path}`,
        ),
      )
      // The eFTI gates' interface: the vendored platform-api-for-gate.yaml, under /efti.
      .concat(
        declaredGateOperations().map(
          ({ method, path }) => `${method.toUpperCase()} /efti${path}`,
        ),
      )
      .map((route) => route.replace(/\{([^}]+)\}/g, ":$1"));
    expect(served.sort()).toEqual(described.sort());
    expect(
      Object.keys(document.paths).filter((path) => path.startsWith("/ops")),
    ).toEqual([]);
    expect(served).toContain("DELETE /api/v1/documents/ref/:reference");
  });

  it("describes every operation of the contract with exactly its statuses", () => {
    const described = Object.fromEntries(
      Object.entries(document.paths).map(([path, item]) => [
        path,
        Object.fromEntries(
          METHODS.flatMap((method) => {
            const operation = (item as Record<string, unknown>)[method] as
              | { responses: Record<string, unknown> }
              | undefined;
            return operation
              ? [[method, Object.keys(operation.responses).map(Number).sort()]]
              : [];
          }),
        ),
      ]),
    );
    const expected = Object.fromEntries(
      Object.entries(CONTRACT).map(([path, operations]) => [
        path,
        Object.fromEntries(
          Object.entries(operations).map(([method, statuses]) => [
            method,
            [...statuses].sort(),
          ]),
        ),
      ]),
    );
    expect(described).toEqual(expected);
  });

  it("documents DOCUMENT_TOO_LARGE for issuing, Retry-After on every 503, and HEAD without a body", () => {
    type Response = { headers?: object; content?: object };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operation = (item as Record<string, unknown>)[method] as
          | { responses: Record<string, Response> }
          | undefined;
        return operation ? [{ path, method, ...operation }] : [];
      }),
    );
    const issuing = operations.filter(
      ({ path, method }) =>
        (path.startsWith("/api/v1/documents") && method === "post") ||
        (method === "put" && CONTRACT[path]?.put !== undefined),
    );
    expect(issuing).toHaveLength(4);
    for (const { responses } of issuing) {
      expect(JSON.stringify(responses["422"])).toContain("DOCUMENT_TOO_LARGE");
    }
    for (const { responses } of operations) {
      expect(responses["503"]?.headers).toHaveProperty("Retry-After");
    }
    const heads = operations.filter(({ method }) => method === "head");
    // The PDF and QR image of a document at both addresses, and both QR links.
    expect(heads).toHaveLength(6);
    for (const { responses } of heads) {
      for (const response of Object.values(responses)) {
        expect(response.content).toBeUndefined();
      }
    }
  });

  it("states the lengths and patterns that the custom checks enforce", () => {
    const request = document.components.schemas.SingleShipmentRequest as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(request.properties.observations).toMatchObject({
      anyOf: [{ type: "string", maxLength: 4000 }, { type: "null" }],
    });
    expect(JSON.stringify(request)).toContain('"pattern":"^[A-Za-z0-9-]+$"');
    expect(request.properties.shipper).toMatchObject({
      properties: { name: { minLength: 1, maxLength: 255 } },
    });
  });

  it("gives the list's page and limit their defaults and ranges", () => {
    const list = document.paths["/api/v1/documents"]?.get as {
      parameters: { name: string; schema: object }[];
    };
    const schemaOf = (name: string) =>
      list.parameters.find((parameter) => parameter.name === name)?.schema;
    expect(schemaOf("page")).toMatchObject({
      type: "integer",
      minimum: 1,
      default: 1,
    });
    expect(schemaOf("limit")).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 25,
    });
  });

  it("shows a generated client both shapes of a document, each with an example of its own", () => {
    const schemas = document.components.schemas as Record<string, Schema>;
    const refs = (...ids: string[]) =>
      ids.map((id) => ({ $ref: `#/components/schemas/${id}` }));
    expect(schemas.DocumentData?.oneOf).toEqual(
      refs("SingleShipmentData", "GroupedShipmentsData"),
    );
    expect(schemas.DocumentRequest?.oneOf).toEqual(
      refs("SingleShipmentRequest", "GroupedShipmentsRequest"),
    );
    // A copy: the validator marks the schemas it indexes.
    const { document: copy, lookup } = indexedApiDocument<typeof document>();
    const matches = (value: unknown, id: string) =>
      validate(
        value,
        (copy.components.schemas as Record<string, Schema>)[id] as Schema,
        "2020-12",
        lookup,
        false,
      ).valid;
    const answers = operationAt("/api/v1/documents", "post").responses[
      "201"
    ] as unknown as {
      content: {
        "application/json": {
          examples: Record<string, { value: { data: unknown } }>;
        };
      };
    };
    const { document: single, grouped } =
      answers.content["application/json"].examples;
    expect(matches(single?.value.data, "SingleShipmentData")).toBe(true);
    expect(matches(single?.value.data, "GroupedShipmentsData")).toBe(false);
    expect(matches(grouped?.value.data, "GroupedShipmentsData")).toBe(true);
    expect(matches(grouped?.value.data, "SingleShipmentData")).toBe(false);
    const [singleBody, , groupedBody] = requestExamples(
      "/api/v1/documents",
      "post",
    );
    expect(matches(singleBody, "SingleShipmentRequest")).toBe(true);
    expect(matches(groupedBody, "GroupedShipmentsRequest")).toBe(true);
    expect(matches(groupedBody, "SingleShipmentRequest")).toBe(false);
  });

  it("gives request examples that the service accepts", () => {
    const examples = requestExamples("/api/v1/documents", "post");
    expect(examples).toHaveLength(3);
    for (const example of [
      ...examples,
      ...requestExamples("/api/v1/documents/{uuid}", "put"),
      ...requestExamples("/api/v1/documents/validate", "post"),
    ]) {
      expect(documentRequestSchema.safeParse(example).success).toBe(true);
    }
  });

  it("offers first, for /docs to send, a create example that issues a new document each time", async () => {
    const [example] = requestExamples("/api/v1/documents", "post");
    const { key } = await createCredential();
    const documents = documentsApi(call, key);
    const first = await documents.issue(example);
    const second = await documents.issue(example);
    expect(second.uuid).not.toBe(first.uuid);
  });

  it("links the answer of create and correct to every operation on the document, at both addresses", () => {
    const linked = (path: string, method: string, status: string) =>
      Object.values(operationAt(path, method).responses[status]?.links ?? {});
    const atUuid = ["get", "put", "delete"].map((method) => [
      "/api/v1/documents/{uuid}",
      method,
    ]);
    const expected = [
      ...atUuid,
      // Not a consignment's XML: its dataset id is not in the answer.
      ...["status", "pdf", "qr", "efti"].map((leaf) => [
        `/api/v1/documents/{uuid}/${leaf}`,
        "get",
      ]),
    ].flatMap(([path = "", method = ""]) => {
      const byUuid = operationAt(path, method).operationId;
      const byReference = operationAt(
        path.replace("{uuid}", "ref/{reference}"),
        method,
      ).operationId;
      return [
        {
          operationId: byUuid,
          parameters: { uuid: "$response.body#/uuid" },
        },
        {
          operationId: byReference,
          parameters: { reference: "$response.body#/reference" },
        },
      ];
    });
    for (const [path, method, status] of [
      ["/api/v1/documents", "post", "201"],
      ["/api/v1/documents", "post", "200"],
      ["/api/v1/documents/{uuid}", "put", "200"],
      ["/api/v1/documents/ref/{reference}", "put", "200"],
    ] as const) {
      const links = linked(path, method, status);
      expect(links).toHaveLength(expected.length);
      expect(links).toEqual(
        expect.arrayContaining(
          expected.map((link) => expect.objectContaining(link)),
        ),
      );
    }
  });

  it("describes every operation, and says who answers for it and under which license", () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = (item as Record<string, { description?: string }>)[
          method
        ];
        if (operation)
          expect(operation.description, `${method} ${path}`).toBeTruthy();
      }
    }
    expect(document.info.title).toMatch(/^DeCA API/);
    expect(document.info.contact.name).toBeTruthy();
    expect(document.info.license).toMatchObject({
      identifier: expect.stringMatching(/^LicenseRef-/),
    });
  });

  it("lists each error status's codes and configured limits from the error catalog", () => {
    const post = operationAt("/api/v1/documents", "post");
    expect(post.responses["409"]?.description).toContain(
      "`REFERENCE_CONFLICT`: This reference is already used by another request.",
    );
    expect(post.responses["409"]?.description).not.toContain(
      "DELETE_WINDOW_EXPIRED",
    );
    expect(post.responses["413"]?.description).toContain(
      `${DEFAULT_MAX_BODY_BYTES.real} bytes`,
    );
    expect(post.responses["429"]?.description).toContain(
      `\`DEMO_DOCUMENT_LIMIT\`: A demo session may issue ${DEFAULT_DEMO_DOCUMENTS_PER_TOKEN} documents`,
    );
  });

  it("gives response examples that match their own schemas", async () => {
    const checked: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = (item as Record<string, unknown>)[method] as
          | {
              responses: Record<
                string,
                {
                  content?: Record<
                    string,
                    {
                      example?: unknown;
                      examples?: Record<string, { value: unknown }>;
                    }
                  >;
                }
              >;
            }
          | undefined;
        for (const [status, response] of Object.entries(
          operation?.responses ?? {},
        )) {
          const media = response.content?.["application/json"];
          const examples = media?.examples
            ? Object.values(media.examples).map((example) => example.value)
            : media?.example === undefined
              ? []
              : [media.example];
          const url = `${ORIGIN}${path.replace(/\{[^}]+\}/g, "0b6c7a52-3f1e-4d8a-9c2b-5e4f3a2d1c0b")}`;
          for (const example of examples) {
            expect(
              await contractViolation(
                method.toUpperCase(),
                url,
                json(Number(status), example),
              ),
            ).toBeNull();
            checked.push(`${method} ${path} ${status}`);
          }
        }
      }
    }
    expect(checked).toContain("post /api/v1/documents 201");
    expect(checked).toContain("get /api/v1/documents 422");
  });
});

describe("the OpenAPI document's webhooks", () => {
  const webhooks = (
    document as unknown as {
      webhooks: Record<
        string,
        {
          post: {
            operationId: string;
            description: string;
            parameters: { name: string; in: string; required: boolean }[];
            requestBody: {
              content: {
                "application/json": { schema: object; example: unknown };
              };
            };
            responses: Record<string, { description: string }>;
          };
        }
      >;
    }
  ).webhooks;

  it("describes the POST of every type of event, its payload from the event's component", () => {
    expect(Object.keys(webhooks)).toEqual([...EVENT_TYPES]);
    const { document: copy, lookup } = indexedApiDocument<typeof document>();
    const schemas = copy.components.schemas as Record<string, Schema>;
    const componentOf = ({ post }: (typeof webhooks)[string]) =>
      Object.keys(schemas).find(
        (id) =>
          JSON.stringify(
            post.requestBody.content["application/json"].schema,
          ) === JSON.stringify({ $ref: `#/components/schemas/${id}` }),
      );
    const components = Object.values(webhooks).map(componentOf);
    expect(new Set(components).size).toBe(EVENT_TYPES.length);
    const fits = (value: unknown, id: string) =>
      validate(value, schemas[id] as Schema, "2020-12", lookup, false).valid;
    for (const [type, webhook] of Object.entries(webhooks)) {
      const { example } = webhook.post.requestBody.content["application/json"];
      expect((example as { type: string }).type).toBe(type);
      // Its own type's component, which its example fits, and no other's.
      expect(components.filter((id) => fits(example, id as string))).toEqual([
        componentOf(webhook),
      ]);
      expect(fits(example, "Event")).toBe(true);
    }
  });

  it("lets a receiver's payload take fields added later, at the top and in data; a request's body stays strict", () => {
    const { document: copy, lookup } = indexedApiDocument<typeof document>();
    const schemas = copy.components.schemas as Record<string, Schema>;
    const fits = (value: unknown, schema: object) =>
      validate(value, schema as Schema, "2020-12", lookup, false).valid;
    for (const { post } of Object.values(webhooks)) {
      const { schema: ref, example } =
        post.requestBody.content["application/json"];
      const schema = schemas[
        (ref as { $ref: string }).$ref.split("/").at(-1) as string
      ] as Schema;
      const { data, ...event } = example as { data: object };
      const added = {
        ...event,
        added_later: 1,
        data: { ...data, added_later: "x" },
      };
      expect(fits(example, schema)).toBe(true);
      expect(fits(added, schema)).toBe(true);
      expect(fits(added, schemas.Event as Schema)).toBe(true);
    }
    const create = schemas.CreateWebhookEndpointRequest as Schema;
    const body = { url: "https://tms.example.com/hooks", events: ["*"] };
    expect(fits(body, create)).toBe(true);
    expect(fits({ ...body, added_later: 1 }, create)).toBe(false);
  });

  it("names the Standard Webhooks headers and what the receiver answers", () => {
    for (const { post } of Object.values(webhooks)) {
      expect(
        post.parameters.map(({ name, in: where, required }) => [
          name,
          where,
          required,
        ]),
      ).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
      ]);
      for (const header of [
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
      ]) {
        expect(post.description).toContain(header);
      }
      expect(post.description).toContain("2xx within 10 s");
      expect(post.description).toContain("for 3 days");
      expect(Object.keys(post.responses)).toEqual(["2XX", "4XX", "5XX"]);
    }
    expect(
      new Set(Object.values(webhooks).map(({ post }) => post.operationId)).size,
    ).toBe(EVENT_TYPES.length);
  });
});

describe("the contract check on every response of the suite", () => {
  const list = `${ORIGIN}/api/v1/documents`;
  const page = {
    data: [],
    meta: { current_page: 1, limit: 25, total: 0, last_page: 1 },
  };

  it("accepts a response as documented", async () => {
    expect(await contractViolation("GET", list, json(200, page))).toBeNull();
  });

  it("refuses a status the operation does not document", async () => {
    expect(await contractViolation("GET", list, json(409, page))).toMatch(
      /GET \/api\/v1\/documents answered 409, a status not documented/,
    );
  });

  it("refuses a body that breaks the schema", async () => {
    const { meta, ...withoutMeta } = page;
    expect(
      await contractViolation("GET", list, json(200, withoutMeta)),
    ).toMatch(/does not match/);
    expect(
      await contractViolation(
        "GET",
        list,
        json(422, { errors: [{ code: "X" }] }),
      ),
    ).toMatch(/does not match/);
  });

  it("refuses a real document result that carries a demo field", async () => {
    const real = exampleDocument();
    const url = `${list}/${real.uuid}`;
    expect(await contractViolation("GET", url, json(200, real))).toBeNull();
    expect(
      await contractViolation("GET", url, json(200, { ...real, demo: true })),
    ).toMatch(/does not match/);
  });

  it("refuses a media type other than the documented one", async () => {
    const uuid = "0b6c7a52-3f1e-4d8a-9c2b-5e4f3a2d1c0b";
    expect(
      await contractViolation("GET", `${ORIGIN}/d/${uuid}?k=x`, json(200, {})),
    ).toMatch(/with application\/json content, documented: application\/pdf/);
    const pdf = new Response("%PDF-", {
      headers: { "Content-Type": "application/pdf" },
    });
    expect(
      await contractViolation("GET", `${list}/${uuid}/status`, pdf),
    ).toMatch(/with application\/pdf content, documented: application\/json/);
  });

  it("refuses an answer the document does not describe, but not a routing error", async () => {
    const notFound = () =>
      json(404, {
        errors: [{ field: null, code: "NOT_FOUND", message: "No such." }],
      });
    expect(
      await contractViolation("GET", `${ORIGIN}/nowhere`, json(200, {})),
    ).toMatch(/a path the document does not describe/);
    expect(
      await contractViolation("GET", `${ORIGIN}/nowhere`, notFound()),
    ).toBeNull();
    expect(await contractViolation("PATCH", list, json(200, page))).toMatch(
      /a method the document does not describe/,
    );
    const wrongMethod = (allow: string) =>
      new Response(
        JSON.stringify({
          errors: [{ field: null, code: "METHOD_NOT_ALLOWED", message: "No." }],
        }),
        {
          status: 405,
          headers: { "Content-Type": "application/json", Allow: allow },
        },
      );
    expect(
      await contractViolation("PATCH", list, wrongMethod("GET, HEAD, POST")),
    ).toBeNull();
    expect(
      await contractViolation("PATCH", list, wrongMethod("GET, HEAD")),
    ).toMatch(/Allow: GET, HEAD, documented: GET, POST, HEAD/);
  });
});
