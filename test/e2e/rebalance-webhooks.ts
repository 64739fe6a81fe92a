import { minimalRequest } from "../../fixtures/requests";
import { keysAt } from "../../scripts/lib/commands";
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../scripts/lib/webhook-receiver";
import {
  credentialBucket,
  shardOfBucket,
} from "../../src/domain/shard-routing";

// The webhooks of test/e2e/rebalance.test.ts: keys whose endpoints receive
// their events on loopback receivers (scripts/lib/webhook-receiver.ts) while
// the rebalance from 4 shards to 8 moves their rows; one of them calls the
// endpoints API throughout the move; once it is over, every event of each
// key must have reached each endpoint subscribed to it, signed, and each of
// its deliveries must read `delivered`.

/** An endpoint registered by a test key and the receiver its URL names. */
export interface WatchedEndpoint {
  id: string;
  /** The types it was created with (`["*"]`: every document event). */
  events: string[];
  created_at: string;
  receiver: WebhookReceiver;
  /** Every secret it was given (created, then rotated): each may sign. */
  secrets: string[];
}

/** The JSON API of one key, with the answer's status and body. */
export function keyClient(origin: string, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      json: <T>() => JSON.parse(text) as T,
    };
  };
}

const receivers: WebhookReceiver[] = [];

/** Closes every receiver started here. */
export const closeReceivers = () =>
  Promise.all(receivers.map((receiver) => receiver.close()));

/**
 * A test key whose events' home moves from 4 shards to 8 (keys are issued
 * until one's credential lands in a moving bucket).
 */
export async function movingKey(
  origin: string,
  organization: string,
): Promise<{ key: string; credentialId: string }> {
  for (let tries = 0; tries < 20; tries++) {
    const issued = await keysAt(
      origin,
      ...["create", "--org", organization, "--env", "test"],
      ...["--rate-limit", "1000000"],
    );
    if (issued.code !== 0) throw new Error(`keys create: ${issued.stderr}`);
    const { key, credential_id: credentialId } = JSON.parse(issued.stdout) as {
      key: string;
      credential_id: string;
    };
    const bucket = credentialBucket({ id: credentialId, environment: "test" });
    if (shardOfBucket(bucket, 8) !== shardOfBucket(bucket, 4)) {
      return { key, credentialId };
    }
  }
  throw new Error("no key's home moves in 20 tries");
}

/** An endpoint of `key` created on a new receiver, which verifies with its secrets. */
export async function watch(
  origin: string,
  key: string,
  events: string[] = ["*"],
): Promise<WatchedEndpoint> {
  const secrets: string[] = [];
  const receiver = await startWebhookReceiver({ secrets: () => secrets });
  receivers.push(receiver);
  const created = await keyClient(origin, key)("POST", "/webhook-endpoints", {
    url: receiver.url,
    events,
    description: "rebalance e2e",
  });
  if (created.status !== 201) {
    throw new Error(`endpoint create: ${created.status}`);
  }
  const endpoint = created.json<{
    id: string;
    created_at: string;
    secret: string;
  }>();
  secrets.push(endpoint.secret);
  return { ...endpoint, events, receiver, secrets };
}

/**
 * What a key does to its endpoint `watched` until `over` settles, round
 * after round, the calls of a round side by side: issues a document, lists,
 * reads, describes and rotates the endpoint, pings it, and creates and
 * deletes another. Each call's unexpected answer (every one is 2xx as
 * documented), and how many rounds.
 */
export async function callEndpointsUntil(
  origin: string,
  key: string,
  watched: WatchedEndpoint,
  over: Promise<unknown>,
): Promise<{ rounds: number; problems: string[] }> {
  let done = false;
  void over.finally(() => {
    done = true;
  });
  const api = keyClient(origin, key);
  const problems: string[] = [];
  const path = `/webhook-endpoints/${watched.id}`;
  const call = async (
    expected: number,
    method: string,
    to: string,
    body?: unknown,
  ) => {
    const answer = await api(method, to, body);
    if (answer.status !== expected) {
      problems.push(`${method} ${to}: ${answer.status}`);
    }
    return answer;
  };
  let rounds = 0;
  while (!done) {
    rounds += 1;
    const round = rounds;
    await Promise.all([
      call(201, "POST", "/documents", minimalRequest()),
      call(200, "GET", "/webhook-endpoints").then((listed) => {
        const ids = listed
          .json<{ data?: { id: string }[] }>()
          .data?.map(({ id }) => id);
        if (!ids?.includes(watched.id)) {
          problems.push(`round ${round}: ${watched.id} not listed`);
        }
      }),
      call(200, "GET", path),
      call(200, "PATCH", path, { description: `round ${round}` }),
      call(200, "POST", `${path}/rotate-secret`).then((rotated) => {
        if (rotated.status === 200) {
          watched.secrets.push(rotated.json<{ secret: string }>().secret);
        }
      }),
      call(202, "POST", `${path}/test`),
      // Another endpoint, created and deleted at once: never delivered to.
      call(201, "POST", "/webhook-endpoints", {
        url: `${watched.receiver.url}/other`,
        events: ["document.deleted"],
      }).then(async (other) => {
        if (other.status !== 201) return;
        const { id } = other.json<{ id: string }>();
        await call(204, "DELETE", `/webhook-endpoints/${id}`);
      }),
    ]);
  }
  return { rounds, problems };
}

/** A key and the endpoints it watched its events with. */
export interface Subscriber {
  key: string;
  endpoints: WatchedEndpoint[];
}

interface Event {
  id: string;
  type: string;
  created_at: string;
  data: { webhook_endpoint_id?: string };
}

/** Every event of a key, all its pages. */
async function eventsOf(origin: string, key: string): Promise<Event[]> {
  const api = keyClient(origin, key);
  const all: Event[] = [];
  for (let after = ""; ; ) {
    const page = (
      await api(
        "GET",
        `/events?limit=100${after ? `&starting_after=${after}` : ""}`,
      )
    ).json<{ data: Event[]; has_more: boolean }>();
    all.push(...page.data);
    const last = page.data.at(-1);
    if (!page.has_more || !last) return all;
    after = last.id;
  }
}

/** Whether `endpoint` is subscribed to `event`: its type, at or after its creation. */
const wants = (endpoint: WatchedEndpoint, event: Event) =>
  event.type === "ping"
    ? event.data.webhook_endpoint_id === endpoint.id
    : event.created_at >= endpoint.created_at &&
      (endpoint.events.includes("*") || endpoint.events.includes(event.type));

/** What the receivers got against the events each key lists. */
export interface DeliveryReport {
  /** Events expected at each endpoint, summed. */
  expected: number;
  /** `event → endpoint` not received (with what the event says of its deliveries). */
  missing: string[];
  /** Deliveries a receiver got again under a webhook-id it had. */
  duplicates: number;
  /** Deliveries no secret of their endpoint verified. */
  unverified: number;
  /** Webhook-ids received that are no event of the key, or not for this endpoint. */
  unexpected: string[];
  /** Expected deliveries whose event does not read them `delivered`. */
  notDelivered: string[];
}

/**
 * Waits, up to `ms`, until each endpoint of each subscriber has received
 * every event of its key that it wants, and each such event reads its
 * delivery `delivered`.
 */
export async function awaitDeliveries(
  origin: string,
  subscribers: readonly Subscriber[],
  ms: number,
): Promise<DeliveryReport> {
  const deadline = Date.now() + ms;
  for (;;) {
    const report = await deliveries(origin, subscribers);
    // A delivery is recorded only after its receiver answered: one just
    // received may not read `delivered` yet.
    const late = Date.now() > deadline;
    const unrecorded =
      report.missing.length === 0 || late
        ? await notDelivered(origin, report)
        : [];
    if (late || (report.missing.length === 0 && unrecorded.length === 0)) {
      return { ...report, notDelivered: unrecorded };
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

type Expected = { key: string; event: Event; endpoint: WatchedEndpoint }[];

async function deliveries(
  origin: string,
  subscribers: readonly Subscriber[],
): Promise<Omit<DeliveryReport, "notDelivered"> & { pairs: Expected }> {
  const report = {
    expected: 0,
    missing: [] as string[],
    duplicates: 0,
    unverified: 0,
    unexpected: [] as string[],
    pairs: [] as Expected,
  };
  for (const { key, endpoints } of subscribers) {
    // What each endpoint received, taken before the key's events are listed:
    // an event is listed once relayed, before any delivery of it, so one
    // delivered while the list is read (a QR scan's access, relayed late) is
    // listed too, and is not taken for an unexpected one.
    const snapshots = endpoints.map((endpoint) => ({
      endpoint,
      snapshot: [...endpoint.receiver.deliveries],
    }));
    const events = await eventsOf(origin, key);
    for (const { endpoint, snapshot } of snapshots) {
      const received = new Map<string, ReceivedDelivery>();
      for (const delivery of snapshot) {
        if (delivery.verifiedBy.length === 0) report.unverified += 1;
        else if (received.has(delivery.id)) report.duplicates += 1;
        else received.set(delivery.id, delivery);
      }
      const wanted = events.filter((event) => wants(endpoint, event));
      const ids = new Set(wanted.map((event) => event.id));
      for (const [id, delivery] of received) {
        if (ids.has(id)) continue;
        // What the delivery said of itself, and whether the key lists it at all.
        const said = JSON.parse(delivery.body) as Partial<Event>;
        const listed = events.some((event) => event.id === id)
          ? "listed"
          : `not listed, detail ${(await keyClient(origin, key)("GET", `/events/${id}`)).status}`;
        report.unexpected.push(
          `${said.type} ${id} at ${said.created_at} → ${endpoint.id} (created ${endpoint.created_at}, ${listed})`,
        );
      }
      for (const event of wanted) {
        report.expected += 1;
        report.pairs.push({ key, event, endpoint });
        if (!received.has(event.id)) {
          report.missing.push(`${event.type} ${event.id} → ${endpoint.id}`);
        }
      }
    }
  }
  return report;
}

/** Each expected delivery its event does not read `delivered`, with what it reads. */
async function notDelivered(
  origin: string,
  report: { pairs: Expected },
): Promise<string[]> {
  const problems: string[] = [];
  // Twenty events read side by side.
  for (let start = 0; start < report.pairs.length; start += 20) {
    await Promise.all(
      report.pairs
        .slice(start, start + 20)
        .map(async ({ key, event, endpoint }) => {
          const answer = await keyClient(origin, key)(
            "GET",
            `/events/${event.id}`,
          );
          const delivery = answer
            .json<{ deliveries?: { endpoint_id: string; status: string }[] }>()
            .deliveries?.find((entry) => entry.endpoint_id === endpoint.id);
          if (delivery?.status !== "delivered") {
            problems.push(
              `${event.type} ${event.id} → ${endpoint.id}: ${answer.status} ${delivery?.status ?? "no delivery"}`,
            );
          }
        }),
    );
  }
  return problems;
}

/** A key that issued documents, their QR links unopened, and the endpoint that received their issue. */
export interface Revoked {
  credentialId: string;
  endpoint: WatchedEndpoint;
  /** The QR link of each document it issued. */
  links: string[];
}

/**
 * A key whose home moves, watching its events, that issues `count`
 * documents; once each issue reached its endpoint (up to 30 s).
 */
export async function toRevoke(
  origin: string,
  count: number,
): Promise<Revoked> {
  const { key, credentialId } = await movingKey(origin, "Revoked");
  const endpoint = await watch(origin, key);
  const api = keyClient(origin, key);
  const links: string[] = [];
  for (let index = 0; index < count; index++) {
    const issued = await api("POST", "/documents", minimalRequest());
    if (issued.status !== 201) throw new Error(`issue: ${issued.status}`);
    links.push(issued.json<{ url: string }>().url);
  }
  const deadline = Date.now() + 30_000;
  while (
    new Set(endpoint.receiver.deliveries.map(({ id }) => id)).size < count
  ) {
    if (Date.now() > deadline) throw new Error("the issues were not received");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { credentialId, endpoint, links };
}

/**
 * Revokes the key of `revoked` with the key tool, then opens each QR link
 * of its documents (a first access each: an event). When the revocation
 * answered, and the status of each link.
 */
export async function revokeAndScan(
  origin: string,
  revoked: Revoked,
): Promise<{ revokedAt: string; scans: number[] }> {
  const revocation = await keysAt(origin, "revoke", revoked.credentialId);
  if (revocation.code !== 0) throw new Error(`revoke: ${revocation.stderr}`);
  const revokedAt = new Date().toISOString();
  const scans = await Promise.all(
    revoked.links.map(
      async (link) =>
        (await fetch(link.replace(/^https?:\/\/[^/]+/, origin))).status,
    ),
  );
  return { revokedAt, scans };
}
