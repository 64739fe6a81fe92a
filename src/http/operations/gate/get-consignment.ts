import { gateConsignmentXml } from "../../../domain/documents/efti-gate";
import {
  SUBSET_IDS,
  type SubsetId,
} from "../../../domain/efti/schema-facts.generated";
import type { GateEnv } from "../../../env";
import { DomainError } from "../../../errors";
import { errorResponses } from "../../error-responses";
import { requireGate } from "../../middleware/require-gate";
import { defineOperation } from "../../operation";
import { GATE_ALWAYS, GATE_KEY, gateDatasetPath } from "./gate-answers";

const isSubsetId = (value: string): value is SubsetId =>
  (SUBSET_IDS as readonly string[]).includes(value);

/**
 * The `subsetId` values of the query (repeated, as the gate API's OpenAPI
 * file has it, or comma-separated), each named once: at least one, every
 * one a subset of the common data set (400 INVALID_SUBSET_ID otherwise).
 */
function subsetsAsked(given: readonly string[] | undefined): SubsetId[] {
  const values = (given ?? []).flatMap((value) => value.split(","));
  if (values.length === 0 || !values.every(isSubsetId)) {
    throw new DomainError("INVALID_SUBSET_ID", { field: "subsetId" });
  }
  return [...new Set(values)];
}

export const getGateConsignmentOperation = defineOperation<
  GateEnv,
  typeof gateDatasetPath
>({
  method: "get",
  path: "/efti/v0/consignments/{datasetId}",
  params: gateDatasetPath,
  middleware: [requireGate],
  handle: async (c, { params }) => {
    const subsets = subsetsAsked(c.req.queries("subsetId"));
    return c.body(
      await gateConsignmentXml(c.var.services, params.datasetId, subsets),
      200,
      { "Content-Type": "application/xml; charset=utf-8" },
    );
  },
  doc: {
    operationId: "getConsignmentSubsets",
    summary:
      "A consignment containing only the elements of the subsets asked for (XML)",
    description: `For an authority's eFTI gate: the consignment of \`datasetId\` as XML of the eFTI common data set (consignment-common.xsd), reduced to the elements of the subsets \`subsetId\` names (repeated, or comma-separated; each one of ${SUBSET_IDS.join(", ")}; 400 \`INVALID_SUBSET_ID\` when none or another). Any live document whose QR link opens, whatever its age or owner; deleted, test, demo, unknown: 404.`,
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
