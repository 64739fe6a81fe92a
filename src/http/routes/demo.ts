import { Hono } from "hono";
import { createDemoToken } from "../../domain/demo/create-demo-token";
import {
  demoUnavailable,
  enforceDemoRateLimit,
} from "../../domain/demo/demo-limits";
import type { AppEnv } from "../../env";
import { demoTokenRequestSchema } from "../../schemas/demo-token-request";
import { clientIp } from "../client-ip";
import { validateJsonBody } from "../validate";

/** The public demo: a token for anyone, within the per-IP limits. */
export const demoRoutes = new Hono<AppEnv>().post(
  "/tokens",
  async (c, next) => {
    const { services } = c.var;
    if (!services.demo.enabled) throw demoUnavailable();
    await enforceDemoRateLimit(
      services,
      clientIp(c.req.raw),
      "tokens",
      services.demo.tokenLimits,
    );
    await next();
  },
  validateJsonBody(demoTokenRequestSchema),
  async (c) =>
    c.json(
      await createDemoToken(c.var.services, {
        clientIp: clientIp(c.req.raw),
        locale: c.req.valid("json").document_locale,
      }),
      201,
    ),
);
