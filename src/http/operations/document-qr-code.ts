import { getDocumentQrLink } from "../../domain/documents/read-document";
import { qrImageResponse } from "../../openapi/responses";
import { BEARER } from "../../openapi/security";
import { MIN_PNG_SIDE } from "../../qr/png";
import { qrImageQuerySchema } from "../../schemas/qr-image-query";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import { qrImage } from "../qr-image";
import type { Address } from "./document-address";
import { DOCUMENT_TAGS, READ_CODES, READ_ERRORS } from "./document-answers";

export const documentQrCodeOperation = ({
  path,
  params,
  operationId,
}: Address) =>
  defineOperation({
    method: "get",
    path: `${path}/qr`,
    params,
    query: qrImageQuerySchema,
    head: true,
    middleware: [requireCredential],
    handle: async (c, input) => {
      const link = await getDocumentQrLink(
        c.var.services,
        c.var.credential,
        input.params,
      );
      const image = await qrImage(link, input.query.format);
      return c.body(image.bytes, 200, image.headers);
    },
    doc: {
      operationId: operationId("getDocumentQrCode"),
      summary: "The QR code of the document's link, as an image",
      description:
        "The code printed on the PDF, alone: for the driver's phone or a message to the driver, who may show it instead of the PDF. It encodes `url`, secret `k` included, so share it like the link. Under the same rules as the PDF download.",
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        200: qrImageResponse(
          `The QR code: SVG, or a PNG at least ${MIN_PNG_SIDE} pixels square, quiet zone included.`,
        ),
        ...errorResponses([...READ_ERRORS, 422], { codes: READ_CODES }),
      },
    },
  });
