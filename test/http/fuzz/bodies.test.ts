import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fullRequest, type RequestBody } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import { expectContractError } from "../../helpers/error-contract";
import { callWith, fixedClock } from "../../helpers/worker";
import { FUZZ_RUNS, FUZZ_SEED, hostileString, hostileValue } from "./hostile";

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const NEVER = "/api/v1/documents/00000000-0000-4000-8000-000000000000";
const request = callWith({ clock: fixedClock(NOW) });

/** Every path into the full request, objects and leaves. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [prefix];
  }
  return [
    ...(prefix.length > 0 ? [prefix] : []),
    ...Object.entries(value).flatMap(([key, child]) =>
      pathsOf(child, [...prefix, key]),
    ),
  ];
}
const PATHS = pathsOf(fullRequest());

/** The full request with the value at `path` replaced, or removed. */
function mutate(
  body: RequestBody,
  path: string[],
  value: unknown,
): RequestBody {
  let parent: RequestBody = body;
  for (const key of path.slice(0, -1)) {
    if (typeof parent[key] !== "object" || parent[key] === null) return body;
    parent = parent[key];
  }
  const last = path[path.length - 1] as string;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return body;
}

const mutatedRequest = fc
  .array(
    fc.tuple(
      fc.constantFrom(...PATHS),
      fc.option(hostileValue, { nil: undefined, freq: 8 }),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .chain((mutations) =>
    fc.record({
      body: fc.constant(
        mutations.reduce(
          (body, [path, value]) => mutate(body, path, value),
          fullRequest(),
        ),
      ),
      // A reference of its own, or none, so that valid bodies issue apart.
      reference: fc.option(fc.uuid(), { nil: null }),
    }),
  )
  .map(({ body, reference }) =>
    "reference" in body && typeof body.reference === "string"
      ? { ...body, reference }
      : body,
  );

const rawBody = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  hostileValue.map((value) => JSON.stringify(value) ?? ""),
  fc
    .integer({ min: 1, max: 200_000 })
    .map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc
    .integer({ min: 1, max: 100_000 })
    .map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  fc.uint8Array({ maxLength: 64 }),
  hostileString,
);

/**
 * String values of a body long enough that finding one in an answer means it
 * was echoed (and not a field name, which an error may name). Iterative:
 * bodies nest deeper than the test's stack.
 */
function echoable(body: unknown): string[] {
  const keys = new Set<string>();
  const values: string[] = [];
  const pending = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string" && value.length >= 8) values.push(value);
    if (typeof value === "object" && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        keys.add(key);
        pending.push(child);
      }
    }
  }
  return values.filter((value) => !keys.has(value));
}

describe("fuzzing request bodies over HTTP", () => {
  let key = "";
  const logged: string[] = [];
  beforeAll(async () => {
    ({ key } = await createCredential({ rateLimitPerMinute: 1_000_000 }));
    for (const method of ["log", "error", "warn", "info"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      });
    }
  });
  afterAll(() => {
    vi.restoreAllMocks();
    // No log line, 500s included, ever carries the key.
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(line).not.toContain(key);
  });

  const send = (method: string, path: string, body: BodyInit) =>
    request(path, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
      },
      body,
    });

  it("answers a mutated document request with a result or the contract's 422, never echoing a value", async () => {
    await fc.assert(
      fc.asyncProperty(
        mutatedRequest,
        fc.constantFrom("POST", "PUT"),
        async (body, method) => {
          const response = await send(
            method,
            method === "POST" ? "/api/v1/documents" : NEVER,
            JSON.stringify(body),
          );
          if (response.status < 400) {
            expect([200, 201]).toContain(response.status);
            return;
          }
          expect([404, 409, 413, 422]).toContain(response.status);
          const text = await expectContractError(response);
          if (response.status === 422) {
            for (const value of echoable(body)) {
              expect(text).not.toContain(JSON.stringify(value).slice(1, -1));
            }
          }
        },
      ),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
    );
  }, 300_000);

  it("answers any body at every body-taking route with a contract error", async () => {
    await fc.assert(
      fc.asyncProperty(
        rawBody,
        fc.constantFrom(
          ["POST", "/api/v1/documents"],
          ["PUT", NEVER],
          ["DELETE", NEVER],
          ["PUT", "/api/v1/documents/ref/NEVER-USED"],
          ["DELETE", "/api/v1/documents/ref/NEVER-USED"],
        ),
        async (body, [method, path]) => {
          const response = await send(method, path, body);
          if (response.status === 201) return;
          expect([400, 404, 413, 422]).toContain(response.status);
          await expectContractError(response);
        },
      ),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
    );
  }, 300_000);
});
