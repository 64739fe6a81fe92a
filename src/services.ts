import { configOf } from "./config";
import { openDatabase } from "./db/client";
import type { DocumentServices } from "./domain/documents/services";
import { durableObjectLocks } from "./durable-objects/locks";
import { durableObjectRateLimits } from "./durable-objects/rate-limits";
import type { AppDependencies } from "./env";
import { createFontStore } from "./storage/font-store";
import { createPdfStore } from "./storage/pdf-store";

/** The services of every invocation, fetch and cron alike: all but what belongs to one request. */
export type SharedServices = Omit<DocumentServices, "baseUrl" | "requestId">;

/**
 * The one place the services are built, from the bindings, the configuration
 * (checked on first use: a malformed value throws a ConfigError) and the
 * dependencies passed in.
 */
export function createServices(
  env: Env,
  dependencies: AppDependencies,
): SharedServices {
  const config = configOf(env);
  return {
    db: openDatabase(env.DB),
    clock: dependencies.clock,
    pdfs: createPdfStore(env.PDFS, config.pdfKeyring),
    qrKeyring: config.qrKeyring,
    renderPdf: dependencies.renderPdf,
    fonts: createFontStore(env.FONTS),
    locks: durableObjectLocks(env.LOCKS),
    rateLimits: durableObjectRateLimits(env.RATE_LIMITER),
    demo: config.demo,
  };
}

/** The services of one request: the shared ones, its id, and the origin of its links. */
export const requestServices = (
  env: Env,
  dependencies: AppDependencies,
  request: { id: string; url: string },
): DocumentServices => ({
  ...createServices(env, dependencies),
  baseUrl: configOf(env).baseUrl ?? new URL(request.url).origin,
  requestId: request.id,
});
