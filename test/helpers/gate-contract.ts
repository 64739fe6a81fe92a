import { type Schema, validate } from "@cfworker/json-schema";
import gateApi from "../../vendor/efti/api-schemas/platform-api-for-gate.yaml?raw";
import { indexedApiDocument } from "./indexed-document";

// The eFTI gates' interface (/efti/v0) is the EU reference implementation's
// platform-api-for-gate.yaml (vendor/efti/), under /efti: each answer a
// worker test receives is checked against what that file declares of its
// path and method (its statuses and their content types), and every error
// against the service's error body.

interface Declared {
  /** `/v0/consignments/{datasetId}` … */
  path: string;
  method: string;
  /** Status → its content types (none: no body). */
  responses: Map<string, string[]>;
}

/**
 * What the file declares, read by its indentation (the file is the vendored
 * one, two spaces a level): paths, their methods, their responses' statuses
 * and content types.
 */
function declared(yaml: string): Declared[] {
  const operations: Declared[] = [];
  let path = "";
  let operation: Declared | undefined;
  let status = "";
  let inResponses = false;
  for (const line of yaml.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const text = line.trim();
    if (text === "" || text.startsWith("#")) continue;
    if (indent === 2 && text.startsWith("/")) {
      path = text.slice(0, -1);
      operation = undefined;
    } else if (indent === 4 && /^(get|put|post|delete|patch):$/.test(text)) {
      operation = { path, method: text.slice(0, -1), responses: new Map() };
      operations.push(operation);
      inResponses = false;
    } else if (operation && indent === 6) {
      inResponses = text === "responses:";
    } else if (operation && inResponses && indent === 8) {
      status = text.replace(/^"?(\d+)"?:$/, "$1");
      operation.responses.set(status, []);
    } else if (
      operation &&
      inResponses &&
      indent === 12 &&
      text.endsWith(":")
    ) {
      operation.responses.get(status)?.push(text.slice(0, -1));
    }
  }
  return operations;
}

const DECLARED = declared(gateApi);

const { document: api, lookup } = indexedApiDocument<{
  components: { schemas: Record<string, Schema> };
}>();

const pattern = (template: string) =>
  new RegExp(`^/efti${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);

const mediaType = (response: Response) =>
  (response.headers.get("Content-Type") ?? "").split(";")[0]?.trim() ?? "";

/** Why a gate answer breaks platform-api-for-gate.yaml or the error body, or null. */
export async function gateContractViolation(
  method: string,
  path: string,
  response: Response,
): Promise<string | null> {
  const where = `${method} ${path} answered ${response.status}`;
  if (response.status >= 400) {
    if (mediaType(response) !== "application/json") {
      return `${where} without the error body`;
    }
    if (method === "HEAD") return null;
    const result = validate(
      await response.clone().json(),
      api.components.schemas.ErrorBody as Schema,
      "2020-12",
      lookup,
      false,
    );
    return result.valid ? null : `${where} with another body than ErrorBody`;
  }
  const operation = DECLARED.find(
    (candidate) =>
      candidate.method === method.toLowerCase() &&
      pattern(candidate.path).test(path),
  );
  if (!operation)
    return `${where}: platform-api-for-gate.yaml has no such operation`;
  const types = operation.responses.get(String(response.status));
  if (!types)
    return `${where}: a status platform-api-for-gate.yaml does not declare`;
  if (types.length === 0) {
    return (await response.clone().text()) === ""
      ? null
      : `${where} with a body, declared: none`;
  }
  return types.includes(mediaType(response))
    ? null
    : `${where} with ${mediaType(response) || "no"} content, declared: ${types.join(", ")}`;
}

/** The operations the file declares, for the test that each is served. */
export const declaredGateOperations = () =>
  DECLARED.map(({ path, method, responses }) => ({
    path,
    method,
    statuses: [...responses.keys()],
  }));
