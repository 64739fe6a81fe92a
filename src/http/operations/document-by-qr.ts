import { uuidPath } from "../../schemas/document-address";
import { errorPageForPeople } from "../middleware/error-page-for-people";
import { defineOperation } from "../operation";
import { qrLinkDoc, serveQrPdf } from "./qr-link";

/** `/d/{uuid}`: the link a real document's QR code encodes. */
export const documentByQrOperation = defineOperation({
  method: "get",
  path: "/d/{uuid}",
  params: uuidPath,
  head: true,
  middleware: [errorPageForPeople],
  handle: serveQrPdf(false),
  doc: qrLinkDoc("downloadDocumentByQr", "The PDF of a QR link"),
});
