import { beforeAll, describe, expect, it } from "vitest";
import { fullRequest } from "../../fixtures/requests";
import { createCredential } from "../helpers/credentials";
import { expectContractError } from "../helpers/error-contract";
import { call } from "../helpers/worker";

// Bodies nested far deeper than any stack (docs/api.md, Order of checks): whatever the depth
// and wherever it sits, the answer is the contract's error body, never a 500.

const NEVER = "/api/v1/documents/00000000-0000-4000-8000-000000000000";

/** JSON text of `depth` arrays nested in each other: 2 bytes a level. */
const nestedArrays = (depth: number) =>
  `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** JSON text of `depth` objects nested in each other: 6 bytes a level. */
const nestedObjects = (depth: number) =>
  `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** JSON text of `body` with `deep` (JSON text) as the value of `field`. */
const withValue = (
  body: Record<string, unknown>,
  field: string,
  deep: string,
) => {
  const rest = JSON.stringify(body).slice(1);
  return `{${JSON.stringify(field)}:${deep}${rest === "}" ? "" : ","}${rest}`;
};

/** A full document request whose `field` holds `deep` instead of its value. */
const documentWith = (field: string, deep: string) => {
  const { [field]: _, ...rest } = fullRequest();
  return withValue(rest, field, deep);
};

describe("a request body nested thousands of levels deep", () => {
  let key = "";
  beforeAll(async () => {
    ({ key } = await createCredential({ rateLimitPerMinute: 1_000_000 }));
  });

  const send = (method: string, path: string, body: string, auth = true) =>
    call(path, {
      method,
      headers: {
        ...(auth ? { Authorization: `Bearer ${key}` } : {}),
        "Content-Type": "application/json",
        "CF-Connecting-IP": "192.0.2.77",
      },
      body,
    });

  async function expectError(
    response: Response,
    status: number,
    item: { field: string | null; code: string },
  ) {
    expect(response.status).toBe(status);
    const body = JSON.parse(await expectContractError(response));
    expect(body.errors).toContainEqual({
      ...item,
      message: expect.any(String),
    });
  }

  it.each([
    ["10,000 arrays", `{"a":${nestedArrays(10_000)}}`],
    ["60,000 arrays", `{"a":${nestedArrays(60_000)}}`],
    ["20,000 objects", nestedObjects(20_000)],
    ["arrays and objects", `{"a":1,"b":{"c":${nestedArrays(30_000)}}}`],
  ])(
    "answers 422 METADATA_TOO_DEEP for metadata holding %s, on create and correct",
    async (_, deep) => {
      const body = documentWith("metadata", deep);
      for (const [method, path] of [
        ["POST", "/api/v1/documents"],
        ["PUT", NEVER],
      ] as const) {
        await expectError(await send(method, path, body), 422, {
          field: "metadata",
          code: "METADATA_TOO_DEEP",
        });
      }
    },
  );

  it("answers 422 INVALID_TYPE for metadata that is itself a deep array", async () => {
    const response = await send(
      "POST",
      "/api/v1/documents",
      documentWith("metadata", nestedArrays(60_000)),
    );
    await expectError(response, 422, {
      field: "metadata",
      code: "INVALID_TYPE",
    });
  });

  it("answers 413 for metadata holding 100,000 arrays, over the size limit", async () => {
    const response = await send(
      "POST",
      "/api/v1/documents",
      documentWith("metadata", `{"a":${nestedArrays(100_000)}}`),
    );
    await expectError(response, 413, {
      field: null,
      code: "PAYLOAD_TOO_LARGE",
    });
  });

  it.each(["observations", "shipper", "goods", "reference", "unknown_field"])(
    "answers 422 naming only %s for deep nesting as its value",
    async (field) => {
      for (const deep of [nestedArrays(60_000), nestedObjects(20_000)]) {
        const response = await send(
          "POST",
          "/api/v1/documents",
          documentWith(field, deep),
        );
        expect(response.status).toBe(422);
        const { errors } = JSON.parse(await expectContractError(response));
        for (const { field: named } of errors) {
          expect(named === field || named.startsWith(`${field}.`)).toBe(true);
        }
      }
    },
  );

  it("answers 400 MALFORMED_JSON for a deep array as the whole body", async () => {
    const response = await send(
      "POST",
      "/api/v1/documents",
      nestedArrays(60_000),
    );
    await expectError(response, 400, { field: null, code: "MALFORMED_JSON" });
  });

  it("answers 422 for deep nesting in a delete body", async () => {
    const valid = {
      confirm_not_delivered: true,
      confirm_not_used: true,
    };
    const response = await send(
      "DELETE",
      NEVER,
      withValue(valid, "reason", nestedArrays(60_000)),
    );
    await expectError(response, 422, { field: "reason", code: "INVALID_TYPE" });
  });

  it("answers 422 for deep nesting in a demo token request", async () => {
    // 32 KiB for demo requests: 15,000 levels fit.
    for (const deep of [nestedArrays(15_000), nestedObjects(5_000)]) {
      const response = await send(
        "POST",
        "/api/v1/demo/tokens",
        withValue({}, "document_locale", deep),
        false,
      );
      expect(response.status).toBe(422);
      await expectContractError(response);
    }
  });
});
