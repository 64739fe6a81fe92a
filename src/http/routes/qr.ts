import { type Context, Hono } from "hono";
import { demoUnavailable } from "../../domain/demo/demo-limits";
import { downloadByQr } from "../../domain/documents/qr-download";
import type { AppEnv } from "../../env";
import { notFound } from "../../errors";
import { isHead, isUuid, pdfResponse } from "../pdf-response";

/** The PDF itself, inline: what an inspector's phone opens from the QR code. */
const qrDownload = (demo: boolean) => async (c: Context<AppEnv>) => {
  if (demo && !c.var.services.demo.enabled) throw demoUnavailable();
  const uuid = c.req.param("uuid") ?? "";
  if (!isUuid(uuid)) throw notFound();
  const pdf = await downloadByQr(
    c.var.services,
    { uuid, k: c.req.query("k"), demo },
    !isHead(c.req.raw),
  );
  return pdfResponse(pdf, "inline");
};

export const qrRoutes = new Hono<AppEnv>()
  .get("/d/:uuid", qrDownload(false))
  .get("/demo/d/:uuid", qrDownload(true));
