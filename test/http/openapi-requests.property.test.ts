import { dereference, type Schema, validate } from "@cfworker/json-schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/openapi/document";
import { createCredential } from "../helpers/credentials";
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
    content: { "application/json": { schema: JsonSchema; example: unknown } };
  };
  responses: Record<string, unknown>;
}

const document = structuredClone(openApiDocument()) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
const lookup = dereference(document as unknown as Schema);
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
  return body;
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

describe("requests generated from the OpenAPI document", () => {
  it("creates: every body the schema accepts is issued or refused as documented", async () => {
    const create = operation("/api/v1/documents", "post");
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodiesOf(create), async (body) => {
        expectValid(body, requestSchema(create).schema);
        const response = await send("POST", "/api/v1/documents", body);
        statuses.add(response.status);
        await expectExplained(create, response);
      }),
      { numRuns: 40, seed: SEED },
    );
    // Known-valid values come up, so documents are really issued.
    expect(statuses).toContain(201);
  });

  it("corrects: every body the schema accepts is issued or refused as documented", async () => {
    const correct = operation("/api/v1/documents/{uuid}", "put");
    await fc.assert(
      fc.asyncProperty(bodiesOf(correct), async (body) => {
        expectValid(body, requestSchema(correct).schema);
        const uuid = await newDocument();
        await expectExplained(
          correct,
          await send("PUT", `/api/v1/documents/${uuid}`, body),
        );
      }),
      { numRuns: 8, seed: SEED },
    );
  });

  it("deletes: every body the schema accepts deletes or is refused as documented", async () => {
    const remove = operation("/api/v1/documents/{uuid}", "delete");
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodiesOf(remove), async (body) => {
        expectValid(body, requestSchema(remove).schema);
        const uuid = await newDocument();
        const response = await send(
          "DELETE",
          `/api/v1/documents/${uuid}`,
          body,
        );
        statuses.add(response.status);
        await expectExplained(remove, response);
      }),
      { numRuns: 10, seed: SEED },
    );
    expect(statuses).toContain(204);
  });

  it("requests demo tokens: every body the schema accepts gets one or is refused as documented", async () => {
    const token = operation("/api/v1/demo/tokens", "post");
    let caller = 0;
    await fc.assert(
      fc.asyncProperty(bodiesOf(token), async (body) => {
        expectValid(body, requestSchema(token).schema);
        const response = await request("/api/v1/demo/tokens", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "CF-Connecting-IP": `203.0.113.${++caller}`,
          },
          body: JSON.stringify(body),
        });
        await expectExplained(token, response);
      }),
      { numRuns: 20, seed: SEED },
    );
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
