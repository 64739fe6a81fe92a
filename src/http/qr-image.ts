import { qrPng } from "../qr/png";
import { qrSvg } from "../qr/svg";
import type { QrImageFormat } from "../schemas/qr-image-query";

const CONTENT_TYPES: Record<QrImageFormat, string> = {
  svg: "image/svg+xml",
  png: "image/png",
};

/**
 * The QR code of a document's link as an image body and its headers: shown
 * inline, and saved under a name that says which document it opens.
 */
export async function qrImage(
  document: { uuid: string; url: string },
  format: QrImageFormat,
): Promise<{
  bytes: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}> {
  const bytes =
    format === "png"
      ? await qrPng(document.url)
      : // A fresh ArrayBuffer, never a shared one, whatever the type says.
        (new TextEncoder().encode(
          qrSvg(document.url),
        ) as Uint8Array<ArrayBuffer>);
  return {
    bytes,
    headers: {
      "Content-Type": CONTENT_TYPES[format],
      "Content-Length": String(bytes.byteLength),
      "Content-Disposition": `inline; filename="documento-control-${document.uuid}-qr.${format}"`,
    },
  };
}
