// `npm run webhooks:listen`: a loopback receiver for the running service (npm
// start) that checks each delivery's signature and prints each event as it
// arrives, one JSON line each; with --forward-to, it re-sends each delivery
// unchanged to the developer's own receiver, as Stripe's CLI does
// (docs/webhooks.md "At a desk"). Its endpoint is kept between runs, its
// secret in .wrangler/, so that a receiver configured once with
// --print-secret keeps verifying; Ctrl-C disables it.
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import {
  type ReceivedDelivery,
  startWebhookReceiver,
} from "./lib/webhook-receiver";

const USAGE = `usage: npm run webhooks:listen -- [--url URL] [--port PORT] [--events TYPE,…|EVENT_ID,…]
                                  [--forward-to URL] [--since TIME] [--print-secret]
  DECA_API_KEY      the API key (sk_test_… or sk_live_…), read from the environment
  --key KEY         the key on the command line instead (discouraged: other users see it in ps)
  --url URL         the service's address, not your receiver's (default http://localhost:$PORT, PORT 8787)
  --port PORT       the listener's loopback port (default: a free one)
  --events LIST     event types to receive (default: all), and event ids (evt_…) to replay
  --forward-to URL  re-sends each delivery, headers and body unchanged, to your receiver
  --since TIME      replays the events since TIME: an ISO 8601 time, or 30m, 2h, 3d ago
  --print-secret    prints the signing secret of the listener's endpoint, for your receiver, and exits`;

const { values } = parseArgs({
  options: {
    key: { type: "string" },
    url: { type: "string" },
    port: { type: "string" },
    events: { type: "string" },
    "forward-to": { type: "string" },
    since: { type: "string" },
    "print-secret": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
const key = values.key ?? process.env.DECA_API_KEY;
const since = values.since === undefined ? null : sinceTime(values.since);
if (values.help || !key || Number.isNaN(since)) {
  console.error(USAGE);
  process.exit(values.help ? 0 : 2);
}
const base = values.url ?? `http://localhost:${process.env.PORT ?? "8787"}`;
const listed = values.events?.split(",").map((item) => item.trim()) ?? [];
const replayIds = listed.filter((item) => item.startsWith("evt_"));
const types = listed.filter((item) => !item.startsWith("evt_"));
const subscribed = types.length > 0 ? types : ["*"];
const DESCRIPTION = "npm run webhooks:listen";

/** `--since`: a time, or a span before now ("30m", "2h", "3d"). */
function sinceTime(text: string): number {
  const span = /^(\d+)([smhd])$/.exec(text);
  if (!span) return Date.parse(text);
  const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[span[2] as "s"];
  return Date.now() - Number(span[1]) * unit * 1000;
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}/api/v1${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
    },
  });

async function fail(what: string, response: Response): Promise<never> {
  console.error(`${what} (${response.status}): ${await response.text()}`);
  process.exit(1);
}

interface ListenerEndpoint {
  id: string;
  secret: string;
}

// One endpoint per service and key; the file is named by a hash, never the key.
const stateFile = join(
  ".wrangler",
  "webhooks-listen",
  `${createHash("sha256").update(`${base}\n${key}`).digest("hex").slice(0, 32)}.json`,
);

/** The endpoint kept from an earlier run, if the service still has it. */
async function keptEndpoint(): Promise<ListenerEndpoint | null> {
  const kept = await readFile(stateFile, "utf8")
    .then((text) => JSON.parse(text) as ListenerEndpoint)
    .catch(() => null);
  if (!kept) return null;
  const found = await api(`/webhook-endpoints/${kept.id}`);
  if (found.status === 404) return null;
  if (found.status !== 200) await fail("The endpoint could not be read", found);
  return kept;
}

/** A new endpoint for the listener at `url`, kept for the next runs. */
async function newEndpoint(url: string): Promise<ListenerEndpoint> {
  const created = await api("/webhook-endpoints", {
    method: "POST",
    body: JSON.stringify({ url, events: subscribed, description: DESCRIPTION }),
  });
  if (created.status !== 201) {
    await fail("The service refused the endpoint", created);
  }
  const { id, secret } = (await created.json()) as ListenerEndpoint;
  await mkdir(dirname(stateFile), { recursive: true });
  await writeFile(stateFile, JSON.stringify({ id, secret }), { mode: 0o600 });
  return { id, secret };
}

/** Stops the deliveries while nobody listens: an event meanwhile is never sent to it. */
const disable = (endpoint: ListenerEndpoint) =>
  api(`/webhook-endpoints/${endpoint.id}`, {
    method: "PATCH",
    body: JSON.stringify({ enabled: false }),
  });

if (values["print-secret"]) {
  let endpoint = await keptEndpoint();
  if (!endpoint) {
    // Disabled until a run listens and points it at its receiver.
    endpoint = await newEndpoint("http://127.0.0.1/webhooks");
    await disable(endpoint);
  }
  console.log(endpoint.secret);
  process.exit(0);
}

// Hop-by-hop headers, and those fetch sets from the body and the URL.
const NOT_FORWARDED = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
]);

/** Re-sends `delivery` to --forward-to and answers the service as the receiver did. */
async function forward(target: string, delivery: ReceivedDelivery) {
  const headers = Object.entries(delivery.headers).filter(
    ([name]) => !NOT_FORWARDED.has(name),
  );
  try {
    const response = await fetch(target, {
      method: "POST",
      headers,
      body: delivery.body,
      redirect: "manual",
    });
    await response.body?.cancel();
    console.error(`${delivery.id} → ${target}: ${response.status}`);
    return response.status;
  } catch (error) {
    console.error(`${delivery.id} → ${target}: no answer (${error})`);
    return 502;
  }
}

let secret = "";
const forwardTo = values["forward-to"];
const receiver = await startWebhookReceiver({
  secrets: () => [secret],
  port: values.port === undefined ? undefined : Number(values.port),
  ...(forwardTo ? { answer: (delivery) => forward(forwardTo, delivery) } : {}),
  onDelivery: (delivery) => {
    if (delivery.event === null) {
      console.error(
        `webhook-id ${delivery.id}: signature not verified, answered 400`,
      );
      return;
    }
    console.log(JSON.stringify(delivery.event));
  },
});
const kept = await keptEndpoint();
if (kept) {
  const updated = await api(`/webhook-endpoints/${kept.id}`, {
    method: "PATCH",
    body: JSON.stringify({
      url: receiver.url,
      events: subscribed,
      enabled: true,
    }),
  });
  if (updated.status !== 200)
    await fail("The service refused the endpoint", updated);
}
const endpoint = kept ?? (await newEndpoint(receiver.url));
secret = endpoint.secret;
console.error(
  `Listening on ${receiver.url} as endpoint ${endpoint.id}${forwardTo ? `, forwarding to ${forwardTo}` : ""}; each verified event is printed below. Ctrl-C stops and disables the endpoint.`,
);

async function stop() {
  await disable(endpoint).catch(() => undefined);
  await receiver.close();
  process.exit(0);
}
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

interface ListedEvent {
  id: string;
  type: string;
  created_at: string;
}

/** The events since `time` that the endpoint wants, oldest first. */
async function eventsSince(time: number): Promise<string[]> {
  const found: ListedEvent[] = [];
  for (let after = ""; ; ) {
    const page = await api(
      `/events?limit=100${after ? `&starting_after=${after}` : ""}`,
    );
    if (page.status !== 200) await fail("The events could not be listed", page);
    const { data, has_more } = (await page.json()) as {
      data: ListedEvent[];
      has_more: boolean;
    };
    const recent = data.filter((event) => Date.parse(event.created_at) >= time);
    found.push(...recent);
    if (!has_more || recent.length < data.length || data.length === 0) break;
    after = data[data.length - 1]?.id ?? "";
  }
  // A ping goes only to the endpoint it tested.
  return found
    .filter((event) => event.type !== "ping")
    .filter((event) => subscribed[0] === "*" || subscribed.includes(event.type))
    .map((event) => event.id)
    .reverse();
}

// A replay is a redelivery to this endpoint: the service signs and sends it
// as it sent the original, under the same webhook-id.
const replayed = new Set([
  ...replayIds,
  ...(since === null ? [] : await eventsSince(since)),
]);
for (const id of replayed) {
  const redelivered = await api(`/events/${id}/redeliver`, {
    method: "POST",
    body: JSON.stringify({ endpoint_id: endpoint.id }),
  });
  console.error(
    redelivered.status === 202
      ? `Replaying ${id}`
      : `Not replayed ${id} (${redelivered.status}): ${await redelivered.text()}`,
  );
}
