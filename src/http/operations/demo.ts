import { createDemoToken } from "../../domain/demo/create-demo-token";
import { exampleDemoToken } from "../../openapi/examples";
import { jsonResponse, responses } from "../../openapi/responses";
import { demoTokenRequestSchema } from "../../schemas/demo-token-request";
import { demoBodyLimit } from "../body-limit";
import { clientIp } from "../client-ip";
import { demoEnabled, demoIpLimit } from "../middleware/demo";
import { defineOperation } from "../operation";

/** The public demo: a token for anyone, within the per-IP limits. */
export const createDemoTokenOperation = defineOperation({
  method: "post",
  path: "/api/v1/demo/tokens",
  body: {
    schema: demoTokenRequestSchema,
    limit: demoBodyLimit,
    example: { document_locale: "es" },
  },
  // The public demo's gate: on, and this IP within its token limits.
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
    summary: "A demo token (sk_demo_) for 24 hours, from this IP only",
    tags: ["demo"],
    security: [],
    responses: responses(
      { 201: jsonResponse("The token.", "DemoTokenResult", exampleDemoToken) },
      [400, 413, 415, 422, 429, 500, 503],
    ),
  },
});
