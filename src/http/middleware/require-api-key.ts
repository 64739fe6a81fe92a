import { createMiddleware } from "hono/factory";
import type { AuthenticatedEnv } from "../../env";
import { DomainError } from "../../errors";

/**
 * After requireCredential: refuses a demo token (403 DEMO_NOT_ALLOWED) where
 * only an API key may go: events and webhook endpoints belong to the keys
 * that issue real documents.
 */
export const requireApiKey = createMiddleware<AuthenticatedEnv>(
  async (c, next) => {
    if (c.var.credential.environment === "demo") {
      throw new DomainError("DEMO_NOT_ALLOWED");
    }
    await next();
  },
);
