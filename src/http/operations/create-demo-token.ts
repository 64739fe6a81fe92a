import {
  createDemoToken,
  DEMO_SESSION_HOURS,
} from "../../domain/demo/create-demo-token";
import { jsonResponse } from "../../openapi/responses";
import { demoTokenRequestSchema } from "../../schemas/demo-token-request";
import { demoTokenResultSchema } from "../../schemas/demo-token-result";
import { demoBodyLimit } from "../body-limit";
import { clientIp } from "../client-ip";
import { errorResponses } from "../error-responses";
import { demoEnabled, demoIpLimit } from "../middleware/demo";
import { defineOperation } from "../operation";

/** The public demo: a token for anyone, within the limits per network (IPv4 address, IPv6 /64). */
export const createDemoTokenOperation = defineOperation({
  method: "post",
  path: "/api/v1/demo/tokens",
  body: {
    schema: demoTokenRequestSchema,
    limit: demoBodyLimit,
    examples: {
      spanish: {
        summary: "PDFs labelled in Spanish",
        value: { document_locale: "es" },
      },
    },
  },
  // The public demo's gate: on, and this IP's network within its token limits.
  middleware: [demoEnabled, demoIpLimit("tokens")],
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
    summary: `A demo token (sk_demo_) for ${DEMO_SESSION_HOURS} hours, from this IP only`,
    description:
      "No key needed. The token works like a test key from the IP that asked for it, for a limited number of documents; its documents carry `demo: true` and their QR links open under /demo/d/ while the demo is on.",
    tags: ["demo"],
    security: [],
    responses: {
      201: jsonResponse("The token.", demoTokenResultSchema, {
        token: "sk_demo_4fJ8kQ2mZx7Rt1Vb9Nc3Hd6Lp0Ws5Ya",
        expires_at: "2026-11-22T08:00:00.000Z",
        document_locale: "es",
      }),
      ...errorResponses([400, 413, 415, 422, 429, 500, 503], {
        codes: ["DEMO_RATE_LIMITED"],
      }),
    },
  },
});
