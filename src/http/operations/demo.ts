import { createMiddleware } from "hono/factory";
import { createDemoToken } from "../../domain/demo/create-demo-token";
import {
  demoUnavailable,
  enforceDemoRateLimit,
} from "../../domain/demo/demo-limits";
import type { AppEnv } from "../../env";
import { exampleDemoToken } from "../../openapi/examples";
import { jsonResponse, responses } from "../../openapi/responses";
import { demoTokenRequestSchema } from "../../schemas/demo-token-request";
import { demoBodyLimit } from "../body-limit";
import { clientIp } from "../client-ip";
import { defineOperation } from "../operation";

/** The public demo's gate: on, and this IP within its token limits. */
const demoTokenLimits = createMiddleware<AppEnv>(async (c, next) => {
  const { services } = c.var;
  if (!services.demo.enabled) throw demoUnavailable();
  await enforceDemoRateLimit(
    services,
    clientIp(c.req.raw),
    "tokens",
    services.demo.tokenLimits,
  );
  await next();
});

/** The public demo: a token for anyone, within the per-IP limits. */
export const createDemoTokenOperation = defineOperation({
  method: "post",
  path: "/api/v1/demo/tokens",
  body: {
    schema: demoTokenRequestSchema,
    limit: demoBodyLimit,
    example: { document_locale: "es" },
  },
  middleware: [demoTokenLimits],
  handle: async (c, { body }) =>
    c.json(
      await createDemoToken(c.var.services, {
        clientIp: clientIp(c.req.raw),
        locale: body.document_locale,
      }),
      201,
    ),
  doc: {
    operationId: "createDemoToken",
    summary: "A demo token (sk_demo_) for 24 hours, from this IP only",
    tags: ["demo"],
    security: [],
    responses: responses(
      { 201: jsonResponse("The token.", "DemoTokenResult", exampleDemoToken) },
      [400, 413, 415, 422, 429, 500, 503],
    ),
  },
});
