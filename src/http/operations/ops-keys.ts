import {
  issueKey,
  listKeys,
  revokeKey,
  setOrganizationLocale,
} from "../../domain/operations/keys";
import {
  OPS_ALWAYS,
  OPS_WITH_BODY,
  opsResponses,
  SUPPORT_SECRET,
} from "../../openapi/ops-responses";
import {
  credentialIdPath,
  issuedKeySchema,
  issueKeyRequestSchema,
  listedKeySchema,
  organizationLocaleSchema,
  organizationNamePath,
  revokedKeySchema,
  setLocaleRequestSchema,
} from "../../schemas/ops";
import { opsBodyLimit } from "../body-limit";
import { requireSupport } from "../middleware/require-support";
import { defineOperation } from "../operation";

const TAGS = ["keys"];

const issueKeyOperation = defineOperation({
  method: "post",
  path: "/ops/v1/keys",
  body: {
    schema: issueKeyRequestSchema,
    limit: opsBodyLimit,
    example: { organization: "Transportes Ejemplo SL", environment: "live" },
  },
  middleware: [requireSupport],
  handle: async (c, { body }) =>
    c.json(await issueKey(c.var.services, body), 201),
  doc: {
    operationId: "issueKey",
    summary: "Issue an API key (the organization is created unless it exists)",
    description:
      "The plain key is in this answer only; the service keeps its SHA-256, prefix and last four characters. `document_locale` sets the organization's PDF language, also for an existing one.",
    tags: TAGS,
    security: SUPPORT_SECRET,
    responses: opsResponses(
      201,
      "The key, once.",
      issuedKeySchema,
      OPS_WITH_BODY,
    ),
  },
});

const listKeysOperation = defineOperation({
  method: "get",
  path: "/ops/v1/keys",
  middleware: [requireSupport],
  handle: async (c) => c.json(await listKeys(c.var.services)),
  doc: {
    operationId: "listKeys",
    summary: "Every API key but demo tokens, by organization then age",
    tags: TAGS,
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "The keys, showing only their prefix and last four characters.",
      listedKeySchema.array(),
      OPS_ALWAYS,
    ),
  },
});

const revokeKeyOperation = defineOperation({
  method: "post",
  path: "/ops/v1/keys/{credential_id}/revoke",
  params: credentialIdPath,
  middleware: [requireSupport],
  handle: async (c, { params }) =>
    c.json(await revokeKey(c.var.services, params.credential_id)),
  doc: {
    operationId: "revokeKey",
    summary: "Revoke an API key: refused from its next request on",
    tags: TAGS,
    security: SUPPORT_SECRET,
    responses: opsResponses(200, "Revoked.", revokedKeySchema, OPS_ALWAYS),
  },
});

const setLocaleOperation = defineOperation({
  method: "put",
  path: "/ops/v1/organizations/{organization}/locale",
  params: organizationNamePath,
  body: {
    schema: setLocaleRequestSchema,
    limit: opsBodyLimit,
    example: { document_locale: "ca" },
  },
  middleware: [requireSupport],
  handle: async (c, { params, body }) =>
    c.json(
      await setOrganizationLocale(
        c.var.services,
        params.organization,
        body.document_locale,
      ),
    ),
  doc: {
    operationId: "setOrganizationLocale",
    summary: "Set the PDF language of an organization's future documents",
    tags: TAGS,
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "Set.",
      organizationLocaleSchema,
      OPS_WITH_BODY,
    ),
  },
});

export const opsKeyOperations = [
  issueKeyOperation,
  listKeysOperation,
  revokeKeyOperation,
  setLocaleOperation,
];
