import {
  createExecutionContext,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { type Schema, validate } from "@cfworker/json-schema";
import { createApiApp } from "../../src/api-app";
import { opsApiDocument } from "../../src/http/routes/ops-openapi";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { ORIGIN } from "./worker";

// The operations API, whose answers are checked against its own OpenAPI
// document (src/openapi/ops-document.ts): a documented status, and a JSON
// body of the documented schema.

/** The base64 key of version `version` of the test SUPPORT_KEYRING (vitest.config.ts). */
export const supportSecret = (
  keyring: string = env.SUPPORT_KEYRING,
  version = "v1",
): string =>
  (JSON.parse(keyring) as { keys: Record<string, string> }).keys[version] ?? "";

const METHODS = ["get", "put", "post", "delete"];

async function checkedAgainstOpsDocument(
  request: Request,
  response: Response,
): Promise<Response> {
  const path = new URL(request.url).pathname;
  const document = opsApiDocument() as unknown as {
    paths: Record<
      string,
      Record<
        string,
        {
          responses: Record<
            string,
            { content?: Record<string, { schema: Schema }> }
          >;
        }
      >
    >;
  };
  const template = Object.keys(document.paths).find((candidate) =>
    new RegExp(`^${candidate.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
  );
  const method = request.method.toLowerCase();
  const operation = template ? document.paths[template]?.[method] : undefined;
  if (!operation || !METHODS.includes(method)) {
    if (response.status === 404 || path === "/ops/v1/openapi.json")
      return response;
    throw new Error(`Ops contract: ${request.method} ${path} is not described`);
  }
  const documented = operation.responses[String(response.status)];
  if (!documented) {
    throw new Error(
      `Ops contract: ${request.method} ${template} answered ${response.status}, not documented`,
    );
  }
  const schema = documented.content?.["application/json"]?.schema;
  if (schema) {
    const result = validate(await response.clone().json(), schema, "2020-12");
    if (!result.valid) {
      throw new Error(
        `Ops contract: ${request.method} ${template} ${response.status}: ${JSON.stringify(result.errors)}`,
      );
    }
  }
  return response;
}

export type OpsCall = (
  path: string,
  init?: RequestInit & { secret?: string | null; ip?: string },
) => Promise<Response>;

/** Calls of the app with `bindings`, sending the support secret unless told (null: none). */
export function opsClient(bindings: Env = env): OpsCall {
  const app = createApiApp({
    clock: { now: () => Date.now() },
    renderPdf: renderDocumentPdf,
  });
  return async (path, { secret = supportSecret(), ip, ...init } = {}) => {
    const headers = new Headers(init.headers);
    if (secret !== null) headers.set("Authorization", `Bearer ${secret}`);
    if (ip) headers.set("CF-Connecting-IP", ip);
    if (init.body) headers.set("Content-Type", "application/json");
    const request = new Request(`${ORIGIN}${path}`, { ...init, headers });
    const context = createExecutionContext();
    const response = await app.fetch(request, bindings, context);
    await waitOnExecutionContext(context);
    return checkedAgainstOpsDocument(request, response);
  };
}

/** A JSON body for `opsClient`. */
export const opsJson = (method: string, body: unknown): RequestInit => ({
  method,
  body: JSON.stringify(body),
});
