import { Hono } from "hono";
import { listDocuments } from "../../domain/documents/list";
import type { AppEnv } from "../../env";
import { listQuerySchema } from "../../schemas/list-query";
import { requireCredential } from "../middleware/authenticate";
import { validate } from "../validate";

export const documentRoutes = new Hono<AppEnv>().get(
  "/",
  requireCredential,
  validate("query", listQuerySchema),
  async (c) =>
    c.json(
      await listDocuments(
        c.var.db,
        c.var.clock,
        c.var.credential,
        c.req.valid("query"),
      ),
    ),
);
