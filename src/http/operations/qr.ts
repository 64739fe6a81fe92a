import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { demoUnavailable } from "../../domain/demo/demo-limits";
import { downloadByQr } from "../../domain/documents/qr-download";
import type { AppEnv } from "../../env";
import {
  type DocumentedErrorStatus,
  documentedPdf,
  responses,
} from "../../openapi/responses";
import { QR_SECRET } from "../../openapi/security";
import { uuidPath } from "../../schemas/document-address";
import { defineOperation } from "../operation";
import { isHead, storedPdfResponse } from "../stored-pdf-response";

// `k` is a secret, like a Bearer key: the domain checks it in constant time,
// and a missing or wrong one is the same 404.
const SECRET_PARAMETER = {
  name: "k",
  in: "query",
  required: true,
  schema: { type: "string" },
};

/** The PDF itself, inline: what an inspector's phone opens from the QR code. */
const serveQrPdf =
  (demo: boolean) =>
  async (c: Context<AppEnv>, { params }: { params: { uuid: string } }) =>
    storedPdfResponse(
      await downloadByQr(
        c.var.services,
        { uuid: params.uuid, k: c.req.query("k"), demo },
        !isHead(c.req.raw),
      ),
      "inline",
    );

/** Demo links answer only while the demo is on. */
const demoEnabled = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.services.demo.enabled) throw demoUnavailable();
  await next();
});

// A demo link also answers 503 while the demo is switched off; any link when
// a dependency is unreachable (docs/api.md, Errors).
const QR: DocumentedErrorStatus[] = [404, 429, 500, 503];

/** A QR link's operation: `/d/{uuid}` real, `/demo/d/{uuid}` demo. */
const qrLinkOperation = (link: {
  demo: boolean;
  operationId: string;
  summary: string;
}) =>
  defineOperation({
    method: "get",
    path: link.demo ? "/demo/d/{uuid}" : "/d/{uuid}",
    params: uuidPath,
    head: true,
    middleware: link.demo ? [demoEnabled] : [],
    handle: serveQrPdf(link.demo),
    doc: {
      operationId: link.operationId,
      summary: link.summary,
      description:
        "No key: the secret `k` of the link authorizes this one document. Copy `k` exactly as returned in `url`.",
      tags: ["qr"],
      security: QR_SECRET,
      parameters: [SECRET_PARAMETER],
      responses: responses(
        { 200: documentedPdf("The PDF, inline.", "inline") },
        QR,
      ),
    },
  });

export const qrOperations = [
  qrLinkOperation({
    demo: false,
    operationId: "downloadDocumentByQr",
    summary: "The PDF of a QR link",
  }),
  qrLinkOperation({
    demo: true,
    operationId: "downloadDemoDocumentByQr",
    summary: "The PDF of a demo QR link (until the demo session expires)",
  }),
];
