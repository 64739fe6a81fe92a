import {
  FOLLOW_UP_RETRY_WINDOW_MS,
  MAX_FOLLOW_UP_BYTES,
  postFollowUp,
} from "../../../domain/documents/efti-gate";
import type { GateEnv } from "../../../env";
import { errorResponses } from "../../error-responses";
import { requireGate } from "../../middleware/require-gate";
import { defineOperation } from "../../operation";
import { readPlainText } from "../../text-body";
import { GATE_ALWAYS, GATE_KEY, gateDatasetPath } from "./gate-answers";

export const postGateFollowUpOperation = defineOperation<
  GateEnv,
  typeof gateDatasetPath
>({
  method: "post",
  path: "/efti/v0/consignments/{datasetId}/follow-up",
  params: gateDatasetPath,
  middleware: [requireGate("follow_up")],
  handle: async (c, { params }) => {
    const message = await readPlainText(c.req.raw, MAX_FOLLOW_UP_BYTES);
    await postFollowUp(c.var.services, params.datasetId, message, {
      name: c.var.gate,
      requestId: c.var.gateRequestId,
    });
    return c.body(null, 200);
  },
  doc: {
    operationId: "postConsignmentFollowup",
    summary: "Add a follow-up message to a consignment",
    description: `For an authority's eFTI gate: a message about the consignment of \`datasetId\`, \`text/plain\`, not empty, at most ${MAX_FOLLOW_UP_BYTES} bytes: in UTF-8, or ISO-8859-1 or windows-1252 (both read as windows-1252) when its \`charset\` says so; without a charset, UTF-8 when the bytes are valid UTF-8, windows-1252 otherwise. Kept, and sent to the document's owner as the event \`document.efti_follow_up\`; the same text again for the same dataset within ${FOLLOW_UP_RETRY_WINDOW_MS / 60_000} minutes, or with the same gate request id (\`requestId\`, else \`X-Request-Id\`), is a retry: one message and one event.`,
    tags: ["efti"],
    security: GATE_KEY,
    responses: {
      200: { description: "The message is kept." },
      ...errorResponses([...GATE_ALWAYS, 400, 413, 415], { api: "gate" }),
    },
  },
});
