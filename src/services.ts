import { ConfigError, configOf } from "./config";
import { openShards } from "./db/client";
import { CONCURRENT_POSTS } from "./domain/events/deliver";
import { slots } from "./domain/events/slots";
import { Subrequests } from "./domain/free-plan";
import type { Background, Services, SharedServices } from "./domain/services";
import { durableObjectRateLimits } from "./durable-objects/rate-limits";
import type { AppDependencies } from "./env";
import { logFailure } from "./failure-log";
import { createArchiveStore } from "./storage/archive-store";
import { createAuditExportStore } from "./storage/audit-export-store";
import { createEventQueue } from "./storage/event-queue";
import { createFontStore } from "./storage/font-store";
import { createPdfEdgeCache } from "./storage/pdf-edge-cache";
import { createPdfStore } from "./storage/pdf-store";

/**
 * What sends the registrations: the client certificate's binding when it is
 * bound (the TLS connection then presents it to the gate), otherwise the
 * dependency given (tests record) or the global `fetch`.
 */
const gateSender = (
  env: Env,
  dependencies: AppDependencies,
): Services["sendToGate"] => {
  const clientCertificate = env.EFTI_GATE_CLIENT_CERTIFICATE;
  if (clientCertificate) return (request) => clientCertificate.fetch(request);
  return dependencies.sendToGate ?? ((request) => fetch(request));
};

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
  const shards = openShards(env);
  if (shards.length === 0) {
    throw new ConfigError("Invalid configuration: DB_0 is not bound.");
  }
  return {
    shards,
    shardsBefore: config.shardsBefore,
    clock: dependencies.clock,
    pdfs: createPdfStore(env.PDFS, config.pdfKeyring),
    edgeCache: createPdfEdgeCache(dependencies.edgeCache ?? caches.default),
    archives: createArchiveStore(env.PDFS, config.pdfKeyring),
    auditExports: createAuditExportStore(env.PDFS),
    qrKeyring: config.qrKeyring,
    renderPdf: dependencies.renderPdf,
    seals() {
      if (!config.sealKeyring) {
        throw new ConfigError(
          "Invalid configuration: SEAL_KEYRING must be set (the seals' keyring) to issue documents.",
        );
      }
      return config.sealKeyring;
    },
    timestamping:
      config.sealTimestampUrl === null
        ? null
        : { url: config.sealTimestampUrl, send: (request) => fetch(request) },
    fonts: createFontStore(env.FONTS),
    rateLimits: durableObjectRateLimits(env.RATE_LIMITER),
    eventQueue: createEventQueue(env.EVENTS),
    webhooks: {
      keyring() {
        if (!config.webhooks.keyring) {
          throw new ConfigError(
            "Invalid configuration: WEBHOOK_KEYRING must be set (a keyring secret) for webhook endpoints.",
          );
        }
        return config.webhooks.keyring;
      },
      allowLoopbackHttp: config.webhooks.allowLoopbackHttp,
    },
    sendWebhook: dependencies.sendWebhook ?? ((request) => fetch(request)),
    webhookPosts: slots(CONCURRENT_POSTS),
    eftiGate: config.eftiGate,
    sendToGate: gateSender(env, dependencies),
    subrequests: new Subrequests(),
    demo: config.demo,
  };
}

/**
 * Work the answer does not wait for, kept alive past the response by
 * `waitUntil`; a failure is logged (the scheduled tasks finish what matters).
 */
const backgroundOf =
  (waitUntil: (promise: Promise<unknown>) => void): Background =>
  (task, work) =>
    waitUntil(
      work.catch((error: unknown) =>
        logFailure({ event: "background_task_failed", task }, error),
      ),
    );

/** The services of one request: the shared ones, its id, the origin of its links, its background work. */
export const requestServices = (
  env: Env,
  dependencies: AppDependencies,
  request: {
    id: string;
    url: string;
    waitUntil: (promise: Promise<unknown>) => void;
  },
): Services => ({
  ...createServices(env, dependencies),
  baseUrl: configOf(env).baseUrl ?? new URL(request.url).origin,
  requestId: request.id,
  background: backgroundOf(request.waitUntil),
});
