import type { Clock } from "../clock";
import type { Database } from "../db/client";
import type { EventMessage } from "../schemas/event-message";
import type { ArchiveStore } from "../storage/archive-store";
import type { AuditExportStore } from "../storage/audit-export-store";
import type { FontStore } from "../storage/font-store";
import type { Keyring } from "../storage/keyring";
import type { PdfEdgeCache } from "../storage/pdf-edge-cache";
import type { PdfStore } from "../storage/pdf-store";
import type { DemoConfig } from "./demo/demo-config";
import type { RenderPdf } from "./documents/render-port";
import type { SealSettings, Timestamping } from "./documents/seal";
import type { Slots } from "./events/slots";
import type { Subrequests } from "./free-plan";
import type { RateLimits } from "./rate-limits";
import type { WebhookSettings } from "./webhooks/webhook-settings";

/** Runs `work` after the answer is sent; `task` names it if it fails. */
export type Background = (task: string, work: Promise<unknown>) => void;

/** The events queue: each message sent, or the call throws (its answer may be lost after it was sent). */
interface EventQueue {
  send(
    messages: readonly EventMessage[],
    options?: { delaySeconds?: number },
  ): Promise<void>;
}

/** Posts one webhook delivery and answers the receiver's response (src/domain/events/deliver.ts). */
export type SendWebhook = (request: Request) => Promise<Response>;

/** Sends one registration to the eFTI gate and answers the gate's response (src/domain/events/gate-registration.ts). */
export type SendToGate = (request: Request) => Promise<Response>;

/** The eFTI gate the consignments' identifiers are registered with (docs/efti.md). */
export interface EftiGate {
  /** Without a trailing slash: PUT {url}/v0/consignments/{datasetId}. */
  url: string;
  /** Sent as `Authorization: Bearer …`; null: no such header. */
  credential: string | null;
  /** Sent as they are (EFTI_GATE_HEADERS), such as the reference gate's pre-authenticated user. */
  headers: Readonly<Record<string, string>>;
}

/**
 * Everything the rules use, passed in so that tests and fault injection can
 * hand over other ones.
 */
export interface Services {
  /** The D1 shards, DB_0 first; src/domain/shard-routing.ts picks one. */
  shards: readonly Database[];
  /**
   * While a rebalance runs, the shard count before it (the first ones of
   * `shards`): a row not yet moved is still where that count routed it.
   */
  shardsBefore: number | null;
  clock: Clock;
  pdfs: PdfStore;
  /** Settled documents' PDFs at the edge, for their QR links. */
  edgeCache: PdfEdgeCache;
  archives: ArchiveStore;
  /** The daily exports of the gates' audit trail. */
  auditExports: AuditExportStore;
  qrKeyring: Keyring;
  /** The PDF renderer (src/pdf), passed in so that tests can replace it. */
  renderPdf: RenderPdf;
  /** SEAL_KEYRING: the electronic seals every PDF is signed with. */
  seals: SealSettings;
  /** SEAL_TIMESTAMP_URL's authority, which makes the seals B-T; null: B-B. */
  timestamping: Timestamping | null;
  fonts: FontStore;
  rateLimits: RateLimits;
  /** Where events are announced for their relay and deliveries (src/domain/events). */
  eventQueue: EventQueue;
  /** The webhooks' secrets keyring and the URLs this deployment delivers to. */
  webhooks: WebhookSettings;
  sendWebhook: SendWebhook;
  /** The invocation's webhook POSTs in flight: at most six (src/domain/events/deliver.ts). */
  webhookPosts: Slots;
  /** EFTI_GATE_URL and its credential; null (the default): nothing is registered. */
  eftiGate: EftiGate | null;
  sendToGate: SendToGate;
  /** What the invocation may still send to the internet: webhook POSTs and gate PUTs together. */
  subrequests: Subrequests;
  demo: DemoConfig;
  /** Public origin of the links in results, such as `https://deca.example`. */
  baseUrl: string;
  /** Recorded with every audit event. */
  requestId: string;
  background: Background;
}

/** The services of every invocation, fetch and cron alike: all but what belongs to one request. */
export type SharedServices = Omit<
  Services,
  "baseUrl" | "requestId" | "background"
>;
