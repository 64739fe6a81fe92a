import type { Operation } from "../operation";
import { createDemoTokenOperation } from "./demo";
import { documentOperations } from "./documents";
import { qrOperations } from "./qr";

/** Every operation of the API, in the order the OpenAPI document lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...documentOperations,
  createDemoTokenOperation,
  ...qrOperations,
];
