// A DeCA webhook receiver in Node, standard library only: verifies each
// delivery's Standard Webhooks signature, then answers 204 (400 if it fails).
// Run: DECA_WEBHOOK_SECRET=whsec_... PORT=4242 node receiver.mjs
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const secret = process.env.DECA_WEBHOOK_SECRET ?? "";
const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
const TOLERANCE_SECONDS = 5 * 60;

/** True when one `v1,` signature of the header signs `${id}.${timestamp}.${body}`. */
function verified(headers, body) {
  const id = headers["webhook-id"] ?? "";
  const timestamp = headers["webhook-timestamp"] ?? "";
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - seconds) > TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", key)
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest();
  return (headers["webhook-signature"] ?? "").split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks); // the raw body: verify before parsing
    if (request.method !== "POST" || !verified(request.headers, body)) {
      response.writeHead(400).end();
      return;
    }
    const event = JSON.parse(body.toString("utf8"));
    // Deliveries come at least once: skip an event id already handled.
    console.log(`${event.id} ${event.type}`);
    response.writeHead(204).end();
  });
});
const port = Number(process.env.PORT ?? 4242);
server.listen(port, "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${port}/webhooks`);
});
