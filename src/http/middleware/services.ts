import { createMiddleware } from "hono/factory";
import { openDatabase } from "../../db/client";
import { demoConfig } from "../../domain/demo/demo-config";
import { durableObjectLocks } from "../../durable-objects/locks";
import { durableObjectRateLimits } from "../../durable-objects/rate-limits";
import type { AppDependencies, AppEnv } from "../../env";
import { createFontStore } from "../../storage/font-store";
import { parseKeyring } from "../../storage/keyring";
import { createPdfStore } from "../../storage/pdf-store";

/** Puts the services of this request on the context, built from the bindings. */
export const provideServices = (dependencies: AppDependencies) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set("services", {
      db: openDatabase(c.env.DB),
      clock: dependencies.clock,
      pdfs: createPdfStore(
        c.env.PDFS,
        parseKeyring(c.env.PDF_KEYRING, "PDF_KEYRING"),
      ),
      qrKeyring: parseKeyring(c.env.QR_KEYRING, "QR_KEYRING"),
      renderPdf: dependencies.renderPdf,
      fonts: createFontStore(c.env.FONTS),
      locks: durableObjectLocks(c.env.LOCKS),
      rateLimits: durableObjectRateLimits(c.env.RATE_LIMITER),
      demo: demoConfig(c.env),
      baseUrl: c.env.BASE_URL || new URL(c.req.url).origin,
      requestId: c.var.requestId,
    });
    await next();
  });
