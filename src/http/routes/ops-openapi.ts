import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { opsOpenApiDocument } from "../../openapi/ops-document";
import { requireSupport } from "../middleware/require-support";

/** The operations API's own description, behind its secret like the rest of it. */
export const opsOpenApiRoutes = new Hono<AppEnv>().get(
  "/openapi.json",
  requireSupport,
  (c) => c.json(opsOpenApiDocument()),
);
