import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { createCredential } from "../helpers/credentials";
import { documentsApi, qrPath } from "../helpers/documents-api";
import { D1_OUTAGE, d1Down } from "../helpers/faults";
import { callWithClock, fixedClock } from "../helpers/worker";

// D1 unreachable or overloaded is an outage like R2's or a Durable Object's
// (docs/api.md, Errors): 503 SERVICE_UNAVAILABLE with Retry-After, whichever
// operation met it, never a 500.

const clock = fixedClock(Date.UTC(2026, 10, 21, 9, 30));
const healthy = callWithClock(clock);
/** The app with D1 failing for everything about documents, authentication still reading. */
const documentsDown = callWithClock(clock, d1Down(/"documents"/));
const databaseDown = callWithClock(clock, d1Down());

afterEach(() => {
  vi.restoreAllMocks();
});

async function expectDatabaseUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get("Retry-After")).toBe("5");
  expect(await response.json()).toEqual({
    errors: [
      {
        field: null,
        code: "SERVICE_UNAVAILABLE",
        message:
          "The database could not be reached or is overloaded. Retry in 5 seconds.",
      },
    ],
  });
}

const issued = async () => {
  const { key } = await createCredential();
  return {
    key,
    document: await documentsApi(healthy, key).issue(minimalRequest()),
  };
};

describe("when D1 is overloaded", () => {
  it("authentication answers 503 and logs D1's error with the request id and the answer's code, never the key", async () => {
    const { key, document } = await issued();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});

    const response = await documentsApi(databaseDown, key).get(document.uuid);

    await expectDatabaseUnavailable(response);
    const logged = errors.mock.calls.map(([line]) => JSON.parse(line));
    expect(logged).toEqual([
      expect.objectContaining({
        request_id: response.headers.get("X-Request-Id"),
        code: "SERVICE_UNAVAILABLE",
        dependency: "database",
        message: D1_OUTAGE,
      }),
    ]);
    expect(JSON.stringify(logged)).not.toContain(key);
  });

  it.each<
    [
      string,
      (api: ReturnType<typeof documentsApi>, uuid: string) => Promise<Response>,
    ]
  >([
    ["reading a document", (api, uuid) => api.get(uuid)],
    ["reading its status", (api, uuid) => api.status(uuid)],
    ["listing documents", (api) => api.list()],
  ])("%s answers 503", async (_name, operation) => {
    const { key, document } = await issued();
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expectDatabaseUnavailable(
      await operation(documentsApi(documentsDown, key), document.uuid),
    );
  });

  it("the QR link answers 503 and records no access", async () => {
    const { key, document } = await issued();
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expectDatabaseUnavailable(await documentsDown(qrPath(document.url)));
    // Not marked accessed: the document can still be deleted.
    expect(
      (await documentsApi(healthy, key).remove(document.uuid)).status,
    ).toBe(204);
  });

  it("a demo token answers 503 and creates no session", async () => {
    const sessions = () =>
      env.DB_0.prepare(
        "SELECT count(*) AS n FROM credentials WHERE environment = 'demo'",
      ).first<number>("n");
    const before = await sessions();
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expectDatabaseUnavailable(
      await databaseDown("/api/v1/demo/tokens", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "CF-Connecting-IP": "198.51.100.200",
        },
        body: "{}",
      }),
    );
    expect(await sessions()).toBe(before);
  });
});
