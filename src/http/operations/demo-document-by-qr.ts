import { createMiddleware } from "hono/factory";
import { demoUnavailable } from "../../domain/demo/demo-limits";
import type { AppEnv } from "../../env";
import { uuidPath } from "../../schemas/document-address";
import { defineOperation } from "../operation";
import { qrLinkDoc, serveQrPdf } from "./qr-link";

/** Demo links answer only while the demo is on. */
const demoEnabled = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.services.demo.enabled) throw demoUnavailable();
  await next();
});

/** `/demo/d/{uuid}`: the link a demo document's QR code encodes. */
export const demoDocumentByQrOperation = defineOperation({
  method: "get",
  path: "/demo/d/{uuid}",
  params: uuidPath,
  head: true,
  middleware: [demoEnabled],
  handle: serveQrPdf(true),
  doc: qrLinkDoc(
    "downloadDemoDocumentByQr",
    "The PDF of a demo QR link (until the demo session expires)",
  ),
});
