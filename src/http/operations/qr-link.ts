import type { Context } from "hono";
import { downloadByQr } from "../../domain/documents/qr-download";
import type { AppEnv } from "../../env";
import type { ParameterObject } from "../../openapi/operation-contract";
import { documentedPdf } from "../../openapi/responses";
import { QR_SECRET } from "../../openapi/security";
import { errorResponses } from "../error-responses";
import { isHead, storedPdfResponse } from "../stored-pdf-response";

// What the two QR links (real and demo) share: no key, the secret `k`.

// `k` is a secret, like a Bearer key: the domain checks it in constant time,
// and a missing or wrong one is the same 404.
const SECRET_PARAMETER: ParameterObject = {
  name: "k",
  in: "query",
  required: true,
  description: "The link's secret, exactly as returned in `url`.",
  schema: { type: "string" },
};

/** The PDF itself, inline: what an inspector's phone opens from the QR code. */
export const serveQrPdf =
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

/** The words of a QR link's operation; a demo one also answers 503 while the demo is off. */
export const qrLinkDoc = (operationId: string, summary: string) => ({
  operationId,
  summary,
  description:
    "No key: the secret `k` of the link authorizes this one document. Copy `k` exactly as returned in `url`. A client whose `Accept` ranks `text/html` above `application/json` (a phone's browser) gets an error as a short page in Spanish and English, the same page for every cause of a 404; any other gets the error body.",
  tags: ["qr"],
  security: QR_SECRET,
  parameters: [SECRET_PARAMETER],
  responses: {
    200: documentedPdf("The PDF, inline.", "inline"),
    ...errorResponses([404, 429, 500, 503], { page: true }),
  },
});
