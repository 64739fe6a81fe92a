import type { Operation } from "../operation";
import { opsKeyOperations } from "./ops-keys";
import { opsShardOperations } from "./ops-shards";
import { opsSupportOperations } from "./ops-support";

/**
 * Every operation of the operations API (/ops/v1, docs/operations.md), in
 * the order its own OpenAPI document lists them; none is in the customers'.
 */
export const OPS_OPERATIONS: readonly Operation[] = [
  ...opsKeyOperations,
  ...opsSupportOperations,
  ...opsShardOperations,
];
