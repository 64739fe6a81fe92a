import { documentAudit } from "../../domain/operations/audit-trail";
import { latestCalls } from "../../domain/operations/ops-calls";
import { upgradeShardsStep } from "../../domain/operations/upgrade-shards";
import {
  OPS_ALWAYS,
  OPS_WITH_BODY,
  opsResponses,
  SUPPORT_SECRET,
} from "../../openapi/ops-responses";
import {
  documentAuditSchema,
  documentUuidPath,
  opsCallsSchema,
  upgradeStepRequestSchema,
  upgradeStepSchema,
} from "../../schemas/ops";
import { opsBodyLimit } from "../body-limit";
import { requireSupport } from "../middleware/require-support";
import { defineOperation } from "../operation";

/** How many calls of the operations API its trail shows. */
const LATEST_CALLS = 200;

const documentAuditOperation = defineOperation({
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

const upgradeShardsOperation = defineOperation({
  method: "post",
  path: "/ops/v1/shards/upgrade",
  body: {
    schema: upgradeStepRequestSchema,
    limit: opsBodyLimit,
    example: { cursor: null },
  },
  middleware: [requireSupport],
  handle: async (c, { body }) =>
    c.json(await upgradeShardsStep(c.var.services.shards, body.cursor)),
  doc: {
    operationId: "upgradeShards",
    summary:
      "Move one page of the rows a single database left in DB_0 to their shards",
    description:
      "Call with `cursor` null, then with each answer's `next` until it is null. Stopped at any point, calling again from the last cursor (or from null) finishes the job; once done, it moves nothing.",
    tags: ["shards"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "What this call moved, and where the next one starts.",
      upgradeStepSchema,
      OPS_WITH_BODY,
    ),
  },
});

const opsCallsOperation = defineOperation({
  method: "get",
  path: "/ops/v1/calls",
  middleware: [requireSupport],
  handle: async (c) => c.json(await latestCalls(c.var.services, LATEST_CALLS)),
  doc: {
    operationId: "listOpsCalls",
    summary: `The audit trail of this API: its latest ${LATEST_CALLS} calls, newest first`,
    description:
      "Refused calls included; `status` null: the call's answer was never recorded (lost, or the Worker stopped).",
    tags: ["audit"],
    security: SUPPORT_SECRET,
    responses: opsResponses(200, "The calls.", opsCallsSchema, OPS_ALWAYS),
  },
});

export const opsSupportOperations = [
  documentAuditOperation,
  upgradeShardsOperation,
  opsCallsOperation,
];
