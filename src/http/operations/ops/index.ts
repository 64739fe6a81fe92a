import type { Operation } from "../../operation";
import { deleteKeyWebhookEndpointOperation } from "./delete-key-webhook-endpoint";
import { documentAuditOperation } from "./document-audit";
import { gateCallChainOperation } from "./gate-call-chain";
import { issueKeyOperation } from "./issue-key";
import { listGateCallsOperation } from "./list-gate-calls";
import { listKeyWebhookEndpointsOperation } from "./list-key-webhook-endpoints";
import { listKeysOperation } from "./list-keys";
import { listOpsCallsOperation } from "./list-ops-calls";
import { listRegistrationsOperation } from "./list-registrations";
import { rebalanceProgressOperation } from "./rebalance-progress";
import { retryRegistrationsOperation } from "./retry-registrations";
import { revokeKeyOperation } from "./revoke-key";
import { runScheduledWorkOperation } from "./run-scheduled-work";
import { setOrganizationLocaleOperation } from "./set-organization-locale";
import { startRebalanceOperation } from "./start-rebalance";
import { upgradeShardsOperation } from "./upgrade-shards";

/**
 * Every operation of the operations API (/ops/v1, docs/operations.md), in
 * the order its own OpenAPI document lists them; none is in the customers'.
 * An operation is one file here and one line below.
 */
export const OPS_OPERATIONS: readonly Operation[] = [
  issueKeyOperation,
  listKeysOperation,
  revokeKeyOperation,
  listKeyWebhookEndpointsOperation,
  deleteKeyWebhookEndpointOperation,
  setOrganizationLocaleOperation,
  documentAuditOperation,
  upgradeShardsOperation,
  listOpsCallsOperation,
  listGateCallsOperation,
  gateCallChainOperation,
  listRegistrationsOperation,
  retryRegistrationsOperation,
  startRebalanceOperation,
  rebalanceProgressOperation,
  runScheduledWorkOperation,
];
