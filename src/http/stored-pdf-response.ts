/**
 * A `HEAD` on a PDF (Hono serves it with the `GET` route) shows what a `GET`
 * would answer but records nothing: not a download, not a QR access.
 */
export const isHead = (request: Request): boolean => request.method === "HEAD";

/**
 * A stored PDF exactly as issued: `inline` opens it in the browser (QR
 * links), `attachment` saves it (authenticated downloads).
 */
export function storedPdfResponse(
  pdf: { uuid: string; bytes: Uint8Array },
  disposition: "inline" | "attachment",
): Response {
  return new Response(pdf.bytes, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(pdf.bytes.byteLength),
      "Content-Disposition": `${disposition}; filename="documento-control-${pdf.uuid}.pdf"`,
      "Cache-Control": "no-store, private",
    },
  });
}
