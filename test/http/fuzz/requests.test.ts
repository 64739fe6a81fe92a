import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCredential } from "../../helpers/credentials";
import { expectContractError } from "../../helpers/error-contract";
import { callWith, fixedClock } from "../../helpers/worker";
import { FUZZ_RUNS, FUZZ_SEED, hostileString } from "./hostile";

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const request = callWith({ clock: fixedClock(NOW) });
const UUID = "00000000-0000-4000-8000-000000000000";

/** A path segment as a client may put it on the wire, encoded or not. */
const segment = fc.oneof(
  fc.constantFrom(
    "documents",
    "ref",
    "status",
    "pdf",
    "d",
    "demo",
    "tokens",
    UUID,
    UUID.toUpperCase(),
    "..",
    ".",
    "",
    "%2e%2e",
    "%00",
    "%ZZ",
    "%F0%9F",
    "%ED%A0%80",
    "ref%2FX",
    "A".repeat(121),
  ),
  hostileString.map((text) =>
    encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, "x")),
  ),
);

const query = fc.option(
  fc.oneof(
    fc.constantFrom(
      "k=",
      "k",
      "k=%",
      "page=0&limit=101",
      "from=2026-02-30",
      "page=1.0",
      "k=a&k=b",
      "page=%00",
    ),
    fc.string({ unit: "grapheme-ascii", maxLength: 40 }).map(encodeURI),
  ),
  { nil: undefined },
);

/** Mostly the service's own routes with odd parameters, sometimes anything. */
const path = fc
  .tuple(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            fc.constantFrom(
              "/api/v1/documents/:id",
              "/api/v1/documents/:id/status",
              "/api/v1/documents/:id/pdf",
              "/api/v1/documents/ref/:id",
              "/api/v1/documents/ref/:id/status",
              "/api/v1/documents/ref/:id/pdf",
              "/d/:id",
              "/demo/d/:id",
              "/api/v1/documents",
              "/api/v1/demo/tokens",
            ),
            segment,
          )
          .map(([route, id]) => route.replace(":id", id)),
      },
      {
        weight: 1,
        arbitrary: fc
          .array(segment, { maxLength: 4 })
          .map((segments) => `/${segments.join("/")}`),
      },
    ),
    query,
  )
  .map(([target, search]) =>
    search === undefined ? target : `${target}?${search}`,
  );

/** Header values a Request accepts: Latin-1, without line breaks or NUL. */
const headerValue = fc
  .oneof(
    fc.string({ unit: "binary-ascii", maxLength: 60 }),
    fc.constantFrom("", " ", "\t", "a".repeat(8000)),
  )
  .map((value) => value.replace(/[\0\r\n]/g, ""));

describe("fuzzing methods, paths, headers and keys over HTTP", () => {
  let key = "";
  const logged: string[] = [];
  const secretsSent = new Set<string>();
  beforeAll(async () => {
    ({ key } = await createCredential({ rateLimitPerMinute: 1_000_000 }));
    secretsSent.add(key);
    for (const method of ["log", "error", "warn", "info"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      });
    }
  });
  afterAll(() => {
    vi.restoreAllMocks();
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) {
      for (const secret of secretsSent) expect(line).not.toContain(secret);
      expect(line).not.toMatch(/[?&]k=/);
    }
  });

  // "valid" stands for the test's key; mostly it, sometimes junk.
  const authorization = fc.oneof(
    fc.constant(undefined),
    { weight: 4, arbitrary: fc.constant("Bearer valid") },
    fc.constantFrom(
      "Bearer",
      "Bearer ",
      "bearer  valid  ",
      "Basic dXNlcjpwYXNz",
      "Bearer sk_test_",
      "Bearer sk_demo_x",
      `Bearer sk_live_${"0".repeat(40)}`,
      "Bearer valid valid",
    ),
    headerValue.map((value) => `Bearer ${value}`),
    headerValue,
  );

  it("answers any method, path, query, header and key without a 500, errors in the contract's body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          "GET",
          "HEAD",
          "POST",
          "PUT",
          "DELETE",
          "PATCH",
          "OPTIONS",
          "get",
        ),
        path,
        authorization,
        fc.dictionary(
          fc.constantFrom(
            "Content-Type",
            "CF-Connecting-IP",
            "X-Request-Id",
            "Accept",
            "Cookie",
            "X-Forwarded-Proto",
            "Transfer-Encoding-Hint",
          ),
          headerValue,
          { maxKeys: 3 },
        ),
        fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
        async (method, target, auth, headers, body) => {
          const sent: Record<string, string> = { ...headers };
          if (auth !== undefined) {
            sent.Authorization = auth.replace(/valid/g, key);
            if (sent.Authorization.length >= 8)
              secretsSent.add(sent.Authorization);
          }
          const hasBody =
            body !== undefined &&
            !["GET", "HEAD"].includes(method.toUpperCase());
          const response = await request(target, {
            method,
            headers: sent,
            body: hasBody ? body : undefined,
          });
          expect(response.status).not.toBe(500);
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400 && method.toUpperCase() !== "HEAD") {
            await expectContractError(response);
          }
          expect(response.headers.get("X-Request-Id")).not.toBe(
            headers["X-Request-Id"],
          );
        },
      ),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS },
    );
  }, 300_000);
});
