import type { Operation } from "../../operation";
import { getGateConsignmentOperation } from "./get-consignment";
import { postGateFollowUpOperation } from "./post-follow-up";

/**
 * The eFTI platform interface for gates (/efti/v0, docs/efti.md "Gates"),
 * as platform-api-for-gate.yaml has it; in neither OpenAPI document of the
 * service. An operation is one file here and one line below.
 */
export const GATE_OPERATIONS: readonly Operation[] = [
  getGateConsignmentOperation,
  postGateFollowUpOperation,
];
