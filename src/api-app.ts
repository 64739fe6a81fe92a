import { createApp } from "./app";
import type { AppDependencies } from "./env";
import { OPERATIONS } from "./http/operations";
import { GATE_OPERATIONS } from "./http/operations/gate";
import { OPS_OPERATIONS } from "./http/operations/ops";
import { openApiRoutes } from "./http/routes/openapi";
import { opsOpenApiRoutes } from "./http/routes/ops-openapi";

/**
 * The API Worker's app (src/index.ts): every operation and the OpenAPI
 * documents. The QR links are among the operations, answered as the edge
 * Worker answers them, so that a hostname routed to this Worker never breaks
 * a printed link; the pages are the edge Worker's alone (its assets). The
 * eFTI gates' interface (/efti/v0) is here too, described by the vendored
 * platform-api-for-gate.yaml, in neither document.
 */
export const createApiApp = (dependencies: AppDependencies) =>
  createApp(dependencies, {
    operations: [...OPERATIONS, ...OPS_OPERATIONS, ...GATE_OPERATIONS],
    routes: [
      ["/api/v1", openApiRoutes],
      ["/ops/v1", opsOpenApiRoutes],
    ],
  });
