import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { openApiDocument } from "../../openapi/document";

/** The machine-readable contract: public, like the docs that render it. */
export const openApiRoutes = new Hono<AppEnv>().get("/openapi.json", (c) =>
  c.json(openApiDocument()),
);
