import { configOf } from "../../../config";
import {
  FULL_SUBSETS,
  gateConsignmentXml,
  subsetsToServe,
} from "../../../domain/documents/efti-gate";
import {
  EXTRA_SUBSETS,
  SUBSETS_SERVED_ALWAYS,
} from "../../../domain/efti/subsets";
import type { GateEnv } from "../../../env";
import { errorResponses } from "../../error-responses";
import { requireGate } from "../../middleware/require-gate";
import { defineOperation } from "../../operation";
import { GATE_ALWAYS, GATE_KEY, gateDatasetPath } from "./gate-answers";

export const getGateConsignmentOperation = defineOperation<
  GateEnv,
  typeof gateDatasetPath
>({
  method: "get",
  path: "/efti/v0/consignments/{datasetId}",
  params: gateDatasetPath,
  middleware: [requireGate("get_consignment")],
  handle: async (c, { params }) => {
    // Repeated, as the gate API's OpenAPI file has it, or comma-separated.
    const subsets = subsetsToServe(
      (c.req.queries("subsetId") ?? []).flatMap((value) => value.split(",")),
      configOf(c.env).gate.subsets,
    );
    c.set("subsetsServed", subsets);
    return c.body(
      await gateConsignmentXml(
        c.var.services,
        params.datasetId,
        subsets,
        c.var.gate,
      ),
      200,
      { "Content-Type": "application/xml; charset=utf-8" },
    );
  },
  doc: {
    operationId: "getConsignmentSubsets",
    summary:
      "A consignment containing only the elements of the subsets asked for (XML)",
    description: `For an authority's eFTI gate: the consignment of \`datasetId\` as XML of the eFTI common data set (consignment-common.xsd), reduced to the elements of the subsets \`subsetId\` names (repeated, or comma-separated): ${SUBSETS_SERVED_ALWAYS.join(", ")}, those of ${EXTRA_SUBSETS.join(", ")} the deployment serves (EFTI_EXTRA_SUBSETS), or \`${FULL_SUBSETS}\` for every subset served; 400 \`INVALID_SUBSET_ID\` when none or another. Any live document whose QR link opens, whatever its age or owner; deleted, test, demo, unknown: 404.`,
    tags: ["efti"],
    security: GATE_KEY,
    responses: {
      200: {
        description: "The consignment, in UTF-8.",
        content: {
          "application/xml": {
            schema: { type: "string", contentMediaType: "application/xml" },
          },
        },
      },
      ...errorResponses([...GATE_ALWAYS, 400], { api: "gate" }),
    },
  },
});
