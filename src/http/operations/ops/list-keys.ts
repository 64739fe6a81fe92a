import { listKeys } from "../../../domain/operations/keys";
import { SUPPORT_SECRET } from "../../../openapi/security";
import { listedKeySchema } from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const listKeysOperation = defineOperation({
  method: "get",
  path: "/ops/v1/keys",
  middleware: [requireSupport],
  handle: async (c) => c.json(await listKeys(c.var.services)),
  doc: {
    operationId: "listKeys",
    summary: "Every API key but demo tokens, by organization then age",
    description:
      "Revoked keys included, with when; never a whole key, which the service does not keep: only its SHA-256.",
    tags: ["keys"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "The keys, showing only their prefix and last four characters.",
      listedKeySchema.array(),
      OPS_ALWAYS,
    ),
  },
});
