import { expect } from "vitest";

/** The headers some error statuses must carry (docs/api.md, Errors). */
const REQUIRED_HEADERS: Record<number, string> = {
  401: "WWW-Authenticate",
  405: "Allow",
};

/**
 * Checks that an error answer is the contract's: a JSON body
 * `{errors: [{field, code, message}]}` with at least one item, the request id
 * header, and the headers its status requires. Returns the body's text.
 */
export async function expectContractError(response: Response): Promise<string> {
  const text = await response.text();
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(response.headers.get("X-Request-Id")).toMatch(/^req_[0-9A-Za-z]{24}$/);
  const required = REQUIRED_HEADERS[response.status];
  if (required) expect(response.headers.get(required)).toBeTruthy();
  const body = JSON.parse(text) as { errors: unknown };
  expect(Object.keys(body)).toEqual(["errors"]);
  expect(Array.isArray(body.errors) && body.errors.length > 0).toBe(true);
  for (const item of body.errors as Record<string, unknown>[]) {
    expect(Object.keys(item)).toEqual(["field", "code", "message"]);
    expect(item.field === null || typeof item.field === "string").toBe(true);
    expect(item.code).toMatch(/^[A-Z_]+$/);
    expect(typeof item.message).toBe("string");
  }
  return text;
}
