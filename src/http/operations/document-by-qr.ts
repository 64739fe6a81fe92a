import { uuidPath } from "../../schemas/document-address";
import { defineOperation } from "../operation";
import { qrLinkDoc, serveQrPdf } from "./qr-link";

/** `/d/{uuid}`: the link a real document's QR code encodes. */
export const documentByQrOperation = defineOperation({
  method: "get",
  path: "/d/{uuid}",
  params: uuidPath,
  head: true,
  handle: serveQrPdf(false),
  doc: qrLinkDoc("downloadDocumentByQr", "The PDF of a QR link"),
});
