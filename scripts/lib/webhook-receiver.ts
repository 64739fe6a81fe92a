// A webhook receiver on loopback that checks every delivery's Standard
// Webhooks signature with the `standardwebhooks` package, an implementation
// independent of the service's: used by `npm run webhooks:listen` and the
// e2e tests.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One delivery as it arrived. */
export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  /** Every header as it arrived, names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The parsed event, once a secret verified it; null when none did. */
  event: { id: string; type: string; data: Record<string, unknown> } | null;
  /** Which of the secrets given verified it (their indexes). */
  verifiedBy: number[];
  /** The status the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/webhooks`. */
  url: string;
  deliveries: ReceivedDelivery[];
  close(): Promise<void>;
}

interface ReceiverOptions {
  /** The signing secrets to verify with (read on each delivery: set them once known). */
  secrets: () => readonly string[];
  /** The status to answer a delivery: 200 unless said (400 when unverified). */
  answer?: (delivery: ReceivedDelivery) => number | Promise<number>;
  onDelivery?: (delivery: ReceivedDelivery) => void;
  port?: number;
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

const header = (request: IncomingMessage, name: string): string =>
  String(request.headers[name] ?? "");

/** Which secrets verify `delivery`, and its event if any did. */
function verify(
  secrets: readonly string[],
  delivery: Pick<ReceivedDelivery, "id" | "timestamp" | "signature" | "body">,
) {
  const headers = {
    "webhook-id": delivery.id,
    "webhook-timestamp": delivery.timestamp,
    "webhook-signature": delivery.signature,
  };
  let event: ReceivedDelivery["event"] = null;
  const verifiedBy: number[] = [];
  secrets.forEach((secret, index) => {
    try {
      event = new Webhook(secret).verify(
        delivery.body,
        headers,
      ) as ReceivedDelivery["event"];
      verifiedBy.push(index);
    } catch {
      // Not signed with this secret (or too old, or malformed).
    }
  });
  return { event, verifiedBy };
}

/** Starts a receiver on 127.0.0.1 (a free port unless given). */
export async function startWebhookReceiver(
  options: ReceiverOptions,
): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const server = createServer(async (request, response) => {
    const arrived = {
      id: header(request, "webhook-id"),
      timestamp: header(request, "webhook-timestamp"),
      signature: header(request, "webhook-signature"),
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          String(value),
        ]),
      ),
      body: await readBody(request),
    };
    const delivery: ReceivedDelivery = {
      ...arrived,
      ...verify(options.secrets(), arrived),
      status: 0,
    };
    delivery.status =
      delivery.event === null
        ? 400
        : ((await options.answer?.(delivery)) ?? 200);
    deliveries.push(delivery);
    options.onDelivery?.(delivery);
    response.writeHead(delivery.status).end();
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, "127.0.0.1", resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
