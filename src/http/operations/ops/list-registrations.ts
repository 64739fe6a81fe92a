import { registrationPage } from "../../../domain/operations/efti-registrations";
import { SUPPORT_SECRET } from "../../../openapi/security";
import {
  registrationListQuerySchema,
  registrationListSchema,
} from "../../../schemas/ops";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_ALWAYS, opsResponses } from "./ops-answers";

export const listRegistrationsOperation = defineOperation({
  method: "get",
  path: "/ops/v1/efti/registrations",
  query: registrationListQuerySchema,
  middleware: [requireSupport],
  handle: async (c, { query }) =>
    c.json(await registrationPage(c.var.services, query)),
  doc: {
    operationId: "listEftiRegistrations",
    summary:
      "The registrations with the eFTI gate that are parked, or still unsent, oldest first",
    description:
      "Each registration PUTs a dataset's identifier document to the gate (EFTI_GATE_URL; docs/efti.md \"Registration with the gate\"). `state=parked`: the gate refused it for good (a 4xx other than 408, 425 and 429; `last_status`), it is never tried again until `POST /ops/v1/efti/registrations/retry` sends it again, once the cause is fixed. `state=unsent`: waiting for its next attempt (`next_attempt_at`), after `attempts` failed ones. `limit` requests at most that many, `has_more` says whether more follow; `dataset_id` keeps one dataset's.",
    tags: ["efti"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "The registrations in that state.",
      registrationListSchema,
      [...OPS_ALWAYS, 422],
    ),
  },
});
