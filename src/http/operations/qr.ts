import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { demoUnavailable } from "../../domain/demo/demo-limits";
import { downloadByQr } from "../../domain/documents/qr-download";
import type { AppEnv } from "../../env";
import { documentedPdf, responses } from "../../openapi/responses";
import { QR_SECRET } from "../../openapi/security";
import { uuidPath } from "../../schemas/document-address";
import { defineOperation } from "../operation";
import { storedPdfResponse } from "../stored-pdf-response";

// `k` is a secret, like a Bearer key: the domain checks it in constant time,
// and a missing or wrong one is the same 404.
const SECRET_PARAMETER = {
  name: "k",
  in: "query",
  required: true,
  schema: { type: "string" },
};

const DESCRIPTION =
  "No key: the secret `k` of the link authorizes this one document. Copy `k` exactly as returned in `url`.";

/** The PDF itself, inline: what an inspector's phone opens from the QR code. */
const serveQrPdf =
  (demo: boolean) =>
  async (c: Context<AppEnv>, { params }: { params: { uuid: string } }) =>
    storedPdfResponse(
      await downloadByQr(
        c.var.services,
        { uuid: params.uuid, k: c.req.query("k"), demo },
        // A HEAD shows what a GET would serve but is not an access.
        c.req.method !== "HEAD",
      ),
      "inline",
    );

/** Demo links answer only while the demo is on. */
const demoEnabled = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.services.demo.enabled) throw demoUnavailable();
  await next();
});

export const qrOperations = [
  defineOperation({
    method: "get",
    path: "/d/{uuid}",
    params: uuidPath,
    handle: serveQrPdf(false),
    doc: {
      operationId: "downloadDocumentByQr",
      summary: "The PDF of a QR link",
      description: DESCRIPTION,
      tags: ["qr"],
      security: QR_SECRET,
      parameters: [SECRET_PARAMETER],
      responses: responses(
        { 200: documentedPdf("The PDF, inline.", "inline") },
        [404, 429, 500],
      ),
    },
  }),
  defineOperation({
    method: "get",
    path: "/demo/d/{uuid}",
    params: uuidPath,
    middleware: [demoEnabled],
    handle: serveQrPdf(true),
    doc: {
      operationId: "downloadDemoDocumentByQr",
      summary: "The PDF of a demo QR link (until the demo session expires)",
      description: DESCRIPTION,
      tags: ["qr"],
      security: QR_SECRET,
      parameters: [SECRET_PARAMETER],
      responses: responses(
        { 200: documentedPdf("The PDF, inline.", "inline") },
        [404, 429, 500, 503],
      ),
    },
  }),
];
