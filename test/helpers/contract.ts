import { dereference, type Schema, validate } from "@cfworker/json-schema";
import { openApiDocument } from "../../src/openapi/document";

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
const contract = structuredClone(openApiDocument()) as unknown as {
  paths: Record<string, PathItem>;
};
const lookup = dereference(contract as unknown as Schema);

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

/** The document's path for a request path: literal segments win over `{parameters}`. */
function pathTemplateOf(path: string): string | undefined {
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
    .sort(moreSpecific)[0];
}

const mediaType = (response: Response) =>
  (response.headers.get("Content-Type") ?? "").split(";")[0]?.trim() ?? "";

/**
 * Why `response` breaks the contract for `method` and `url`, or null when
 * it keeps it. Requests the document does not describe (unknown paths, a
 * wrong method, HEAD but on a PDF) have nothing to keep.
 */
export async function contractViolation(
  method: string,
  url: string,
  response: Response,
): Promise<string | null> {
  const template = pathTemplateOf(new URL(url).pathname);
  const operation =
    template === undefined
      ? undefined
      : contract.paths[template]?.[method.toLowerCase()];
  if (template === undefined || operation === undefined) return null;
  const where = `${method} ${template} answered ${response.status}`;
  const documented = operation.responses[String(response.status)];
  if (documented === undefined) return `${where}, a status not documented`;

  const body = response.clone();
  const content = documented.content ?? {};
  const type = mediaType(response);
  const expected = content[type];
  if (expected === undefined) {
    const text = await body.text();
    return Object.keys(content).length === 0 && text === ""
      ? null
      : `${where} with ${type || "no"} content, documented: ${Object.keys(content).join(", ") || "none"}`;
  }
  if (type !== "application/json") {
    await body.body?.cancel();
    return null;
  }
  const result = validate(
    await body.json(),
    expected.schema,
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
