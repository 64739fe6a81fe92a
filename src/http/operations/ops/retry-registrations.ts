import { retryParkedRegistrations } from "../../../domain/operations/efti-registrations";
import { SUPPORT_SECRET } from "../../../openapi/security";
import {
  registrationRetryRequestSchema,
  registrationRetrySchema,
} from "../../../schemas/ops";
import { opsBodyLimit } from "../../body-limit";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_WITH_BODY, opsResponses } from "./ops-answers";

export const retryRegistrationsOperation = defineOperation({
  method: "post",
  path: "/ops/v1/efti/registrations/retry",
  body: {
    schema: registrationRetryRequestSchema,
    limit: opsBodyLimit,
    examples: {
      one: {
        summary: "One dataset's",
        value: { dataset_id: "01a20cc8-8e80-8271-801b-7c7442e6b8f4" },
      },
      all: { summary: "Every parked one", value: {} },
    },
  },
  middleware: [requireSupport],
  handle: async (c, { body }) =>
    c.json(await retryParkedRegistrations(c.var.services, body)),
  doc: {
    operationId: "retryEftiRegistrations",
    summary: "Send parked registrations with the eFTI gate again",
    description:
      "Once the cause of the gate's refusals is fixed (a credential, a body the gate refuses): the parked registrations (of `dataset_id`, or any), up to 100 a shard a call, are tried again at once, each as the document now is, their attempts counted anew; a refusal parks them again. Call again until `retried` is 0.",
    tags: ["efti"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "How many were sent again.",
      registrationRetrySchema,
      OPS_WITH_BODY,
    ),
  },
});
