import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { opsOpenApiDocument } from "../../openapi/ops-document";
import { requireSupport } from "../middleware/require-support";
import { OPS_OPERATIONS } from "../operations/ops";

/** The operations API's OpenAPI document, built from its operations. */
export const opsApiDocument = () => opsOpenApiDocument(OPS_OPERATIONS);

/** The operations API's own description, behind its secret like the rest of it. */
export const opsOpenApiRoutes = new Hono<AppEnv>().get(
  "/openapi.json",
  requireSupport,
  (c) => c.json(opsApiDocument()),
);
