import { DEFAULT_MAX_BODY_BYTES } from "../config";
import { documentTooLarge } from "../domain/documents/pdf-size";
import { type ErrorCode, VALIDATION_CODES } from "../errors";
import type {
  Example,
  HeaderObject,
  ResponseObject,
} from "../openapi/operation-contract";
import { header } from "../openapi/responses";
import { errorBodySchema } from "../schemas/error-body";
import { INVALID_TAX_ID_MESSAGE } from "../schemas/party";
import { codesOf } from "./error-catalog";
import { errorPage } from "./error-page";

// The error answers of the API descriptions, from the error catalog: each
// status says what it means, then every code it carries, worded as the
// service words it.

const { real, demo } = DEFAULT_MAX_BODY_BYTES;

/** What each error status means, before its codes (docs/api.md, Errors). */
const STATUS_MEANINGS = {
  400: "The body is not JSON, or not a JSON object.",
  401: "No credential, or one that is unknown, revoked or expired.",
  403: "The credential may not make this request: not from the caller's IP (a demo token: only from the IP that requested it), or, for a demo token, not at all.",
  404: "No such resource for this caller: nonexistent, foreign, out of its window or deleted, all alike.",
  409: "The rules refuse the request: the document rules, or a limit of the key.",
  413: `The body is over the configured limit: ${real} bytes by default (\`MAX_BODY_BYTES\`), ${demo} for demo requests (\`MAX_DEMO_BODY_BYTES\`).`,
  415: "The body's Content-Type is not application/json.",
  422: "Validation failed: every error at once, each with the dotted path of its field or the name of its query parameter.",
  429: "Too many requests.",
  500: "An unexpected error.",
  503: "A dependency is unreachable or busy, or the demo is switched off. Any operation may answer it.",
} as const;

/** A status whose error response the API descriptions document. */
export type DocumentedErrorStatus = keyof typeof STATUS_MEANINGS;

/** The headers of the catalog, as a client reads them. */
const HEADERS: Record<string, HeaderObject> = {
  "Retry-After": header("Seconds to wait before trying again.", "integer"),
  "WWW-Authenticate": header("`Bearer`.", "string"),
};

const errorExample = (code: string, message: string, field: string | null) => ({
  summary: code,
  value: { errors: [{ field, code, message }] },
});

const codeList = (codes: { code: string; message: string }[]) =>
  codes.map(({ code, message }) => `\n- \`${code}\`: ${message}`).join("");

/** The 422: every validation code, and DOCUMENT_TOO_LARGE when issuing. */
function validationResponse(issuing: boolean): ResponseObject {
  const [tooLarge] = documentTooLarge().items;
  const codes = VALIDATION_CODES.filter((code) => code !== tooLarge?.code);
  const examples: Record<string, Example> = {
    validation: errorExample(
      "INVALID_TAX_ID",
      INVALID_TAX_ID_MESSAGE,
      "shipper.tax_id",
    ),
  };
  if (issuing && tooLarge) {
    examples.documentTooLarge = errorExample(
      tooLarge.code,
      tooLarge.message,
      null,
    );
  }
  return {
    description: `${STATUS_MEANINGS[422]} Its \`code\`: ${codes.map((code) => `\`${code}\``).join(", ")}.${issuing && tooLarge ? codeList([tooLarge]) : ""}`,
    content: { "application/json": { schema: errorBodySchema, examples } },
  };
}

interface Options {
  api?: "customers" | "ops" | "gate";
  /** Create and correct may also refuse the PDF's size. */
  issuing?: boolean;
  /**
   * The only codes it answers of their statuses; otherwise every code of a
   * status but those answered only where named.
   */
  codes?: readonly ErrorCode[];
  /** A QR link: a browser that ranks HTML above JSON gets a page instead. */
  page?: boolean;
}

function errorResponse(
  status: Exclude<DocumentedErrorStatus, 422>,
  { api = "customers", codes: only = [], page = false }: Options,
): ResponseObject {
  const all = codesOf(status, api);
  const listed = all.filter(({ code }) => only.includes(code));
  const codes =
    listed.length > 0 ? listed : all.filter(({ namedOnly }) => !namedOnly);
  const names = [...new Set(codes.flatMap((c) => Object.keys(c.headers)))];
  const headers = Object.fromEntries(
    names.map((name) => {
      const without = codes.filter((c) => !(name in c.headers));
      const absent = without.length
        ? ` Absent with ${without.map((c) => `\`${c.code}\``).join(", ")}.`
        : "";
      const { description, schema } = HEADERS[name] ?? header("", "string");
      return [name, { description: `${description}${absent}`, schema }];
    }),
  );
  return {
    description: `${STATUS_MEANINGS[status]}${codeList(codes)}`,
    ...(names.length > 0 ? { headers } : {}),
    content: {
      "application/json": {
        schema: errorBodySchema,
        examples: Object.fromEntries(
          codes.map(({ code, message }) => [
            code,
            errorExample(code, message, null),
          ]),
        ),
      },
      ...(page
        ? {
            "text/html": {
              schema: { type: "string" },
              example: errorPage(status),
            },
          }
        : {}),
    },
  };
}

/** The error answers of an operation, by status. */
export const errorResponses = (
  statuses: readonly DocumentedErrorStatus[],
  options: Options = {},
): Record<string, ResponseObject> =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      status === 422
        ? validationResponse(options.issuing ?? false)
        : errorResponse(status, options),
    ]),
  );
