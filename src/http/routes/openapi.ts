import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { openApiDocument } from "../../openapi/document";
import { OPERATIONS } from "../operations";

/** The API's OpenAPI document, built from the operations the app serves. */
export const apiDocument = () => openApiDocument(OPERATIONS);

/** The machine-readable contract: public, like the docs that render it. */
export const openApiRoutes = new Hono<AppEnv>().get("/openapi.json", (c) =>
  c.json(apiDocument()),
);
