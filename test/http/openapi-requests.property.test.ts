import { type Schema, validate } from "@cfworker/json-schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createCredential } from "../helpers/credentials";
import { indexedApiDocument } from "../helpers/indexed-document";
import { arbitraryOf, type JsonSchema } from "../helpers/json-schema-arbitrary";
import { bearer, callWith, fixedClock } from "../helpers/worker";

// Requests generated from the OpenAPI document's own request schemas: every
// one the document accepts is answered with a success or with a status the
// operation lists and error codes the document explains (in that status's
// response or in the rules of the request's schema), never a 5xx. The
// worker helpers also check each answer against the document.

interface Operation {
  parameters?: { name: string; in: string; schema: JsonSchema }[];
  requestBody?: {
    content: {
      "application/json": {
        schema: JsonSchema;
        examples: Record<string, { value: unknown }>;
      };
    };
  };
  responses: Record<string, unknown>;
}

const { document, lookup } = indexedApiDocument<{
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}>();
const resolve = (ref: string): JsonSchema => {
  const name = ref.replace("#/components/schemas/", "");
  const schema = document.components.schemas[name];
  if (!schema) throw new Error(`No schema ${ref}`);
  return schema;
};

/** `schema` with every `$ref` replaced by what it names, for reading its words. */
const inlined = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(inlined);
  if (typeof schema !== "object" || schema === null) return schema;
  const { $ref, ...rest } = schema as { $ref?: string };
  return Object.fromEntries(
    Object.entries({ ...($ref ? resolve($ref) : {}), ...rest }).map(
      ([key, value]) => [key, inlined(value)],
    ),
  );
};

const operation = (path: string, method: string): Operation => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`No ${method} ${path} in the document`);
  return found;
};

const requestSchema = (op: Operation) => {
  const body = op.requestBody?.content["application/json"];
  if (!body) throw new Error("The operation takes no body");
  // The first example: the one /docs sends.
  const [first] = Object.values(body.examples);
  return { schema: body.schema, example: first?.value };
};

/** Bodies from the operation's schema, each checked against that schema. */
const bodiesOf = (op: Operation) => {
  const { schema, example } = requestSchema(op);
  return arbitraryOf(schema, resolve, example);
};

const expectValid = (value: unknown, schema: JsonSchema) => {
  const result = validate(value, schema as Schema, "2020-12", lookup, false);
  expect(result.errors, JSON.stringify(value)).toEqual([]);
};

/** A success, or a listed status whose codes the document explains. */
async function expectExplained(op: Operation, response: Response) {
  const status = String(response.status);
  expect(response.status).toBeLessThan(500);
  expect(Object.keys(op.responses)).toContain(status);
  if (response.status < 400) return;
  const words = JSON.stringify([
    op.responses[status],
    inlined(op.requestBody),
    inlined(op.parameters),
  ]);
  const { errors } = (await response.json()) as {
    errors: { code: string }[];
  };
  for (const { code } of errors) expect(words).toContain(code);
}

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const request = callWith({ clock: fixedClock(NOW) });
const SEED = 22;
let key: string;

const send = (method: string, path: string, body?: unknown) =>
  request(path, {
    method,
    ...bearer(key, { "Content-Type": "application/json" }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A new document from the create example, without its reference, to act on. */
async function newDocument(): Promise<string> {
  const { example } = requestSchema(operation("/api/v1/documents", "post"));
  const response = await send("POST", "/api/v1/documents", {
    ...(example as object),
    reference: null,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { uuid: string }).uuid;
}

beforeAll(async () => {
  ({ key } = await createCredential({ rateLimitPerMinute: 1_000_000 }));
});

/**
 * Sends `numRuns` bodies generated for the operation at `path` and
 * `method`, each through `sendBody`, and checks each answer; returns the
 * statuses seen.
 */
async function checkBodies(
  path: string,
  method: string,
  numRuns: number,
  sendBody: (body: unknown, run: number) => Promise<Response>,
): Promise<Set<number>> {
  const op = operation(path, method);
  const statuses = new Set<number>();
  let run = 0;
  await fc.assert(
    fc.asyncProperty(bodiesOf(op), async (body) => {
      expectValid(body, requestSchema(op).schema);
      const response = await sendBody(body, ++run);
      statuses.add(response.status);
      await expectExplained(op, response);
    }),
    { numRuns, seed: SEED },
  );
  return statuses;
}

describe("requests generated from the OpenAPI document", () => {
  it("creates: every body the schema accepts is issued or refused as documented", async () => {
    const statuses = await checkBodies(
      "/api/v1/documents",
      "post",
      40,
      (body) => send("POST", "/api/v1/documents", body),
    );
    // Known-valid values come up, so documents are really issued.
    expect(statuses).toContain(201);
  });

  it("corrects: every body the schema accepts is issued or refused as documented", async () => {
    await checkBodies("/api/v1/documents/{uuid}", "put", 8, async (body) =>
      send("PUT", `/api/v1/documents/${await newDocument()}`, body),
    );
  });

  it("deletes: every body the schema accepts deletes or is refused as documented", async () => {
    const statuses = await checkBodies(
      "/api/v1/documents/{uuid}",
      "delete",
      10,
      async (body) =>
        send("DELETE", `/api/v1/documents/${await newDocument()}`, body),
    );
    expect(statuses).toContain(204);
  });

  it("requests demo tokens: every body the schema accepts gets one or is refused as documented", async () => {
    // A caller of its own each time, under the per-IP limits.
    await checkBodies("/api/v1/demo/tokens", "post", 20, (body, run) =>
      request("/api/v1/demo/tokens", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "CF-Connecting-IP": `203.0.113.${run}`,
        },
        body: JSON.stringify(body),
      }),
    );
  });

  it("creates webhook endpoints: every body the schema accepts registers one or is refused as documented", async () => {
    const statuses = await checkBodies(
      "/api/v1/webhook-endpoints",
      "post",
      20,
      async (body) => {
        const response = await send("POST", "/api/v1/webhook-endpoints", body);
        // At most 16 a key: each one registered goes again.
        if (response.status === 201) {
          const { id } = (await response.clone().json()) as { id: string };
          await send("DELETE", `/api/v1/webhook-endpoints/${id}`);
        }
        return response;
      },
    );
    expect(statuses).toContain(201);
  });

  it("changes webhook endpoints: every body the schema accepts changes one or is refused as documented", async () => {
    const created = await send("POST", "/api/v1/webhook-endpoints", {
      url: "https://receiver.example/hooks",
      events: ["*"],
    });
    const { id } = (await created.json()) as { id: string };
    const statuses = await checkBodies(
      "/api/v1/webhook-endpoints/{endpoint_id}",
      "patch",
      10,
      (body) => send("PATCH", `/api/v1/webhook-endpoints/${id}`, body),
    );
    expect(statuses).toContain(200);
  });

  it("lists: every query the parameters accept is answered as documented", async () => {
    const list = operation("/api/v1/documents", "get");
    const parameters = (list.parameters ?? []).filter((p) => p.in === "query");
    const queries = fc.record(
      Object.fromEntries(
        parameters.map((p) => [p.name, arbitraryOf(p.schema, resolve)]),
      ),
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(queries, async (query) => {
        for (const p of parameters) {
          if (p.name in query) expectValid(query[p.name], p.schema);
        }
        const search = new URLSearchParams(
          Object.entries(query).map(([name, value]) => [name, String(value)]),
        );
        await expectExplained(
          list,
          await send("GET", `/api/v1/documents?${search}`),
        );
      }),
      { numRuns: 40, seed: SEED },
    );
  });
});
