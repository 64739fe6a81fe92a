import { Hono } from "hono";
import type { DocumentAddress } from "../../domain/documents/addressing";
import { createDocument } from "../../domain/documents/create-document";
import { deleteDocument } from "../../domain/documents/delete-document";
import { listDocuments } from "../../domain/documents/list";
import {
  downloadDocumentPdf,
  getDocument,
  getDocumentQrLink,
  getDocumentStatus,
} from "../../domain/documents/read-document";
import { rectifyDocument } from "../../domain/documents/rectify-document";
import type { AppEnv } from "../../env";
import { notFound } from "../../errors";
import { deleteRequestSchema } from "../../schemas/delete-request";
import { documentRequestSchema } from "../../schemas/document-request";
import { listQuerySchema } from "../../schemas/list-query";
import { qrImageQuerySchema } from "../../schemas/qr-image-query";
import { isReference } from "../../schemas/reference";
import { requireCredential } from "../middleware/authenticate";
import { isHead, isUuid, pdfResponse } from "../pdf-response";
import { qrImage } from "../qr-image";
import { validate, validateJsonBody } from "../validate";

/**
 * The document named by the path: `/{uuid}` or `/ref/{reference}`. A path
 * that cannot name a document is the same 404 as an unknown one.
 */
function addressOf(
  params: Record<string, string | undefined>,
): DocumentAddress {
  const { uuid } = params;
  if (uuid !== undefined) {
    if (!isUuid(uuid)) throw notFound();
    return { uuid };
  }
  const reference = params.reference ?? "";
  if (!isReference(reference)) throw notFound();
  return { reference };
}

export const documentRoutes = new Hono<AppEnv>()
  .get("/", requireCredential, validate("query", listQuerySchema), async (c) =>
    c.json(
      await listDocuments(
        c.var.services,
        c.var.credential,
        c.req.valid("query"),
      ),
    ),
  )
  .post(
    "/",
    requireCredential,
    validateJsonBody(documentRequestSchema),
    async (c) => {
      const { created, result } = await createDocument(
        c.var.services,
        c.var.credential,
        c.req.valid("json"),
      );
      return c.json(result, created ? 201 : 200);
    },
  );

// Every document operation answers at both addresses. References first: a
// uuid is never "ref", while a reference may be "pdf", "status" or "qr".
for (const path of ["/ref/:reference", "/:uuid"]) {
  documentRoutes
    .get(path, requireCredential, async (c) =>
      c.json(
        await getDocument(
          c.var.services,
          c.var.credential,
          addressOf(c.req.param()),
        ),
      ),
    )
    .put(
      path,
      requireCredential,
      validateJsonBody(documentRequestSchema),
      async (c) =>
        c.json(
          await rectifyDocument(
            c.var.services,
            c.var.credential,
            addressOf(c.req.param()),
            c.req.valid("json"),
          ),
        ),
    )
    .delete(
      path,
      requireCredential,
      validateJsonBody(deleteRequestSchema),
      async (c) => {
        await deleteDocument(
          c.var.services,
          c.var.credential,
          addressOf(c.req.param()),
          c.req.valid("json"),
        );
        return c.body(null, 204);
      },
    )
    .get(`${path}/status`, requireCredential, async (c) =>
      c.json(
        await getDocumentStatus(
          c.var.services,
          c.var.credential,
          addressOf(c.req.param()),
        ),
      ),
    )
    .get(`${path}/pdf`, requireCredential, async (c) => {
      const pdf = await downloadDocumentPdf(
        c.var.services,
        c.var.credential,
        addressOf(c.req.param()),
        !isHead(c.req.raw),
      );
      return pdfResponse(pdf, "attachment");
    })
    .get(
      `${path}/qr`,
      requireCredential,
      validate("query", qrImageQuerySchema),
      async (c) => {
        const link = await getDocumentQrLink(
          c.var.services,
          c.var.credential,
          addressOf(c.req.param()),
        );
        const image = await qrImage(link, c.req.valid("query").format);
        return c.body(image.bytes, 200, image.headers);
      },
    );
}
