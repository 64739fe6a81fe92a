import { uuidPath } from "../../schemas/document-address";
import { demoEnabled } from "../middleware/demo";
import { errorPageForPeople } from "../middleware/error-page-for-people";
import { defineOperation } from "../operation";
import { qrLinkDoc, serveQrPdf } from "./qr-link";

/** `/demo/d/{uuid}`: the link a demo document's QR code encodes. */
export const demoDocumentByQrOperation = defineOperation({
  method: "get",
  path: "/demo/d/{uuid}",
  params: uuidPath,
  head: true,
  middleware: [errorPageForPeople, demoEnabled],
  handle: serveQrPdf(true),
  doc: qrLinkDoc(
    "downloadDemoDocumentByQr",
    "The PDF of a demo QR link (until the demo session expires)",
  ),
});
