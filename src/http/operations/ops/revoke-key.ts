import { revokeKey } from "../../../domain/operations/keys";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { credentialIdPath, revokedKeySchema } from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const revokeKeyOperation = defineOperation({
  method: "post",
  path: "/ops/v1/keys/{credential_id}/revoke",
  params: credentialIdPath,
  middleware: [requireSupport],
  handle: async (c, { params }) =>
    c.json(await revokeKey(c.var.services, params.credential_id)),
  doc: {
    operationId: "revokeKey",
    summary: "Revoke an API key: refused from its next request on",
    description:
      'Its webhook endpoints are disabled for good (`disabled_reason: "revoked"`) and their pending deliveries failed, then every copy of the key is revoked, in each shard. 404 when no unrevoked key has that id, so a second call is a 404 (its endpoints are disabled again if need be).',
    tags: ["keys"],
    security: SUPPORT_SECRET,
    responses: opsResponses(200, "Revoked.", revokedKeySchema, OPS_ALWAYS),
  },
});
