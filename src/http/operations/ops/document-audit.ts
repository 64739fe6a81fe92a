import { documentAudit } from "../../../domain/operations/audit-trail";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { documentAuditSchema, documentUuidPath } from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const documentAuditOperation = defineOperation({
  method: "get",
  path: "/ops/v1/documents/{uuid}/audit",
  params: documentUuidPath,
  middleware: [requireSupport],
  handle: async (c, { params }) =>
    c.json(await documentAudit(c.var.services, params.uuid)),
  doc: {
    operationId: "getDocumentAudit",
    summary:
      "A document's audit trail, from its shard and its R2 archive, in time order",
    description:
      "Never the body, a key or a QR secret. A uuid that names no document answers an empty trail.",
    tags: ["documents"],
    security: SUPPORT_SECRET,
    responses: opsResponses(200, "The trail.", documentAuditSchema, OPS_ALWAYS),
  },
});
