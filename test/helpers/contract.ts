import { type Schema, validate } from "@cfworker/json-schema";
import type { ErrorBody } from "../../src/errors";
import { apiDocument, openApiRoutes } from "../../src/http/routes/openapi";
import { PAGE_CSP, pageRoutes } from "../../src/http/routes/pages";
import { gateContractViolation } from "./gate-contract";
import { indexedApiDocument } from "./indexed-document";

// Every response a route test receives is checked against the OpenAPI
// document (its path, method and status), so that the code and its
// description cannot drift apart.

interface MediaType {
  schema: Schema;
}
interface Operation {
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
type PathItem = Record<string, Operation>;

// A copy: the validator marks the schemas it indexes.
const { document: contract, lookup } = indexedApiDocument<{
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, Schema> };
}>();

const segments = (path: string) => path.split("/").slice(1);

const isParameter = (part: string) => part.startsWith("{");

/**
 * Which of two templates names a path, as the router decides: more literal
 * segments, then the earlier literal (`/ref/{reference}` over `/{uuid}/pdf`).
 */
function moreSpecific(a: string, b: string): number {
  const literals = (template: string) =>
    segments(template).filter((part) => !isParameter(part)).length;
  const [partsA, partsB] = [segments(a), segments(b)];
  const firstDifference = partsA.findIndex(
    (part, index) => isParameter(part) !== isParameter(partsB[index] ?? ""),
  );
  return (
    literals(b) - literals(a) ||
    (firstDifference === -1
      ? 0
      : Number(isParameter(partsA[firstDifference] ?? "")) -
        Number(isParameter(partsB[firstDifference] ?? "")))
  );
}

/** The document's paths matching a request path, as the router tries them. */
function pathTemplatesOf(path: string): string[] {
  const actual = segments(path);
  return Object.keys(contract.paths)
    .filter((template) => {
      const expected = segments(template);
      return (
        expected.length === actual.length &&
        expected.every((part, index) =>
          isParameter(part) ? actual[index] !== "" : part === actual[index],
        )
      );
    })
    .sort(moreSpecific);
}

const mediaType = (response: Response) =>
  (response.headers.get("Content-Type") ?? "").split(";")[0]?.trim() ?? "";

const METHODS = ["get", "head", "put", "patch", "post", "delete"];

/** Why a JSON body breaks `schema`, or null. */
async function bodyViolation(
  where: string,
  response: Response,
  schema: Schema,
): Promise<string | null> {
  const result = validate(
    await response.clone().json(),
    schema,
    "2020-12",
    lookup,
    false,
  );
  return result.valid
    ? null
    : `${where} with a body that does not match the document:\n${result.errors
        .map((error) => `  ${error.instanceLocation}: ${error.error}`)
        .join("\n")}`;
}

/**
 * A routing error (docs/api.md, Errors): the error body with `code`, empty for a
 * HEAD, and for a 405 the `Allow` header naming `allowed`.
 */
async function routingErrorViolation(
  where: string,
  method: string,
  response: Response,
  code: "NOT_FOUND" | "METHOD_NOT_ALLOWED",
  allowed: string[] = [],
): Promise<string | null> {
  if (mediaType(response) !== "application/json") {
    return `${where} without the error body`;
  }
  if (code === "METHOD_NOT_ALLOWED") {
    const allow = (response.headers.get("Allow") ?? "").split(", ").sort();
    if (allow.join() !== [...allowed].sort().join()) {
      return `${where} with Allow: ${allow.join(", ")}, documented: ${allowed.join(", ")}`;
    }
  }
  if (method === "HEAD") return null;
  const violation = await bodyViolation(
    where,
    response,
    contract.components.schemas.ErrorBody as Schema,
  );
  if (violation) return violation;
  const { errors } = (await response.clone().json()) as ErrorBody;
  return errors[0]?.code === code
    ? null
    : `${where} with another code than ${code}`;
}

// Served beside the API, not described by its document: the document itself
// and the pages (src/http/routes/pages.ts).
const SITE = [
  ...openApiRoutes.routes.map((route) => `/api/v1${route.path}`),
  ...pageRoutes.routes.map((route) => route.path),
];
const isSitePath = (path: string) =>
  SITE.some((route) =>
    route.endsWith("/*") ? path.startsWith(route.slice(0, -1)) : path === route,
  );

/** The document at its path; a page with its policy; else a routing error. */
async function siteViolation(
  method: string,
  path: string,
  response: Response,
): Promise<string | null> {
  const where = `${method} ${path} answered ${response.status}`;
  if (response.status === 404) {
    return routingErrorViolation(where, method, response, "NOT_FOUND");
  }
  if (!isSitePath(path))
    return `${where}, a path the document does not describe`;
  if (response.status === 405) {
    return routingErrorViolation(
      where,
      method,
      response,
      "METHOD_NOT_ALLOWED",
      ["GET", "HEAD"],
    );
  }
  if (response.status !== 200) return `${where}, not a page`;
  if (path === "/api/v1/openapi.json") {
    const served = method === "HEAD" ? null : await response.clone().json();
    return served === null ||
      JSON.stringify(served) === JSON.stringify(apiDocument())
      ? null
      : `${where} with another document than the app's`;
  }
  return response.headers.get("Content-Security-Policy") === PAGE_CSP
    ? null
    : `${where} without the pages' Content-Security-Policy`;
}

/**
 * Why `response` breaks the contract for `method` and `url`, or null when
 * it keeps it. An operation's answer is checked against the document (a
 * HEAD against its GET, without a body); a path or method the document does
 * not describe may only be the document itself, a page, or a routing error
 * (404, or 405 with the documented methods in `Allow`). Anything else fails.
 */
export async function contractViolation(
  method: string,
  url: string,
  response: Response,
): Promise<string | null> {
  const verb = method.toUpperCase();
  const path = new URL(url).pathname;
  if (path.startsWith("/efti/v0/")) {
    return gateContractViolation(verb, path, response);
  }
  const matching = pathTemplatesOf(path);
  if (matching.length === 0) return siteViolation(verb, path, response);
  // A path without parameters answers only its own methods, as OpenAPI
  // matches it first (src/http/middleware/concrete-paths.ts); among
  // templates, the router serves the method from the first that has it.
  const templates = matching[0]?.includes("{")
    ? matching
    : matching.slice(0, 1);
  const name = verb === "HEAD" ? "get" : verb.toLowerCase();
  const template =
    templates.find((candidate) => contract.paths[candidate]?.[name]) ??
    templates[0];
  const operation = contract.paths[template as string]?.[name];
  const where = `${verb} ${template} answered ${response.status}`;
  if (operation === undefined) {
    const documented = new Set(
      templates.flatMap((candidate) =>
        METHODS.filter((method) => method in (contract.paths[candidate] ?? {})),
      ),
    );
    if (documented.has("get")) documented.add("head");
    const allowed = [...documented].map((method) => method.toUpperCase());
    return response.status === 405
      ? routingErrorViolation(
          where,
          verb,
          response,
          "METHOD_NOT_ALLOWED",
          allowed,
        )
      : `${where}, a method the document does not describe`;
  }
  const documented = operation.responses[String(response.status)];
  if (documented === undefined) return `${where}, a status not documented`;

  const content = documented.content ?? {};
  const type = mediaType(response);
  const expected = content[type];
  if (expected === undefined) {
    const text = await response.clone().text();
    return Object.keys(content).length === 0 && text === ""
      ? null
      : `${where} with ${type || "no"} content, documented: ${Object.keys(content).join(", ") || "none"}`;
  }
  if (verb === "HEAD") {
    return (await response.clone().text()) === ""
      ? null
      : `${where} with a body`;
  }
  if (type !== "application/json") {
    await response.clone().body?.cancel();
    return null;
  }
  return bodyViolation(where, response, expected.schema);
}

/** The response itself, once it has been checked against the contract. */
export async function checkedAgainstContract(
  request: Request,
  response: Response,
): Promise<Response> {
  const violation = await contractViolation(
    request.method,
    request.url,
    response,
  );
  if (violation) throw new Error(`Contract: ${violation}`);
  return response;
}
