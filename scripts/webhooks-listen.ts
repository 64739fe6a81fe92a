// `npm run webhooks:listen`: registers a webhook endpoint on loopback with
// the running service (npm start), checks each delivery's signature and
// prints each event as it arrives, one JSON line each; Ctrl-C deletes the
// endpoint. For a developer at a desk, as Stripe's CLI listens for its users
// (docs/webhooks.md).
import { parseArgs } from "node:util";
import { startWebhookReceiver } from "./lib/webhook-receiver";

const USAGE = `usage: npm run webhooks:listen -- --key KEY [--url URL] [--port PORT] [--events TYPE,TYPE]
  --key KEY       an API key (sk_test_… or sk_live_…); or the DECA_API_KEY variable
  --url URL       the service (default http://localhost:$PORT, PORT 8787)
  --port PORT     the receiver's loopback port (default: a free one)
  --events TYPES  the event types to receive, comma-separated (default: all)`;

const { values } = parseArgs({
  options: {
    key: { type: "string" },
    url: { type: "string" },
    port: { type: "string" },
    events: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
const key = values.key ?? process.env.DECA_API_KEY;
if (values.help || !key) {
  console.error(USAGE);
  process.exit(values.help ? 0 : 2);
}
const base = values.url ?? `http://localhost:${process.env.PORT ?? "8787"}`;

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${base}/api/v1/webhook-endpoints${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
    },
  });

let secret = "";
const receiver = await startWebhookReceiver({
  secrets: () => [secret],
  port: values.port === undefined ? undefined : Number(values.port),
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

const created = await api("", {
  method: "POST",
  body: JSON.stringify({
    url: receiver.url,
    events: values.events?.split(",").map((type) => type.trim()) ?? ["*"],
    description: "npm run webhooks:listen",
  }),
});
if (created.status !== 201) {
  console.error(
    `The service refused the endpoint (${created.status}): ${await created.text()}`,
  );
  await receiver.close();
  process.exit(1);
}
const endpoint = (await created.json()) as { id: string; secret: string };
secret = endpoint.secret;
console.error(
  `Listening on ${receiver.url} as endpoint ${endpoint.id}; each verified event is printed below. Ctrl-C stops and deletes the endpoint.`,
);

async function stop() {
  await api(`/${endpoint.id}`, { method: "DELETE" }).catch(() => undefined);
  await receiver.close();
  process.exit(0);
}
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
