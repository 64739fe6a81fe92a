import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fullRequest,
  minimalRequest,
  type RequestBody,
} from "../../fixtures/requests";
import {
  apiClient,
  freePort,
  keys,
  type RunningService,
  startService,
} from "../../scripts/lib/commands";
import {
  type ReceivedDelivery,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../scripts/lib/webhook-receiver";

// Events delivered by `npm start` to receivers on loopback, each delivery
// checked with the `standardwebhooks` package (scripts/lib/webhook-receiver.ts).

let stateDir: string;
let service: RunningService;
let key: string;
let api: ReturnType<typeof apiClient>;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "deca-webhooks-"));
  service = await startService(stateDir);
  const issued = await keys(
    stateDir,
    "create",
    "--org",
    "Webhooks SL",
    "--env",
    "test",
  );
  key = (JSON.parse(issued.stdout) as { key: string }).key;
  api = apiClient(service.port, key);
});

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await service?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

/** Waits until `ready` holds (after each `poll`), or fails after `ms` saying what it waited for. */
async function until(
  what: string,
  ready: () => boolean,
  ms = 60_000,
  poll: () => Promise<void> = async () => {},
) {
  const deadline = Date.now() + ms;
  for (await poll(); !ready(); await poll()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A subscription no later test's fact gives: a ping reaches its endpoint whatever it wants. */
const QUIET = ["document.deleted"];

/** A receiver whose secrets are set once its endpoint is created. */
async function receiverWith(answer?: (delivery: ReceivedDelivery) => number) {
  const secrets: string[] = [];
  const receiver = await startWebhookReceiver({
    secrets: () => secrets,
    ...(answer ? { answer } : {}),
  });
  receivers.push(receiver);
  return { receiver, secrets };
}

async function createEndpoint(url: string, events: string[] = ["*"]) {
  const response = await api("/api/v1/webhook-endpoints", {
    method: "POST",
    body: JSON.stringify({ url, events, description: "e2e" }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

const json = async <Body = Record<string, string>>(response: Response) => {
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as Body;
};

/** A minimal document issued, then deleted (204): two facts, two events. */
async function issuedAndDeleted(): Promise<Record<string, string>> {
  const issued = await json(
    await api("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify(minimalRequest()),
    }),
  );
  const deleted = await api(`/api/v1/documents/${issued.uuid}`, {
    method: "DELETE",
    body: JSON.stringify({
      reason: "Pedido anulado: el camión no salió.",
      confirm_not_delivered: true,
      confirm_not_used: true,
    }),
  });
  expect(deleted.status).toBe(204);
  return issued;
}

/** The event of each distinct webhook-id, in arrival order. */
const eventsOf = (deliveries: ReceivedDelivery[]) => {
  const seen = new Map<string, ReceivedDelivery>();
  for (const delivery of deliveries) {
    const earlier = seen.get(delivery.id);
    // A duplicate is allowed only as the same event under the same webhook-id.
    if (earlier) expect(delivery.body).toBe(earlier.body);
    else seen.set(delivery.id, delivery);
  }
  return [...seen.values()].map((delivery) => delivery.event);
};

describe("events delivered as signed webhooks", () => {
  it("delivers each fact exactly once, signed, carrying no secret", async () => {
    const { receiver, secrets } = await receiverWith();
    secrets.push((await createEndpoint(receiver.url)).secret);

    const body: RequestBody = { ...fullRequest(), reference: "WH-0001" };
    const first = await json(
      await api("/api/v1/documents", {
        method: "POST",
        body: JSON.stringify(body),
      }),
    );
    // An identical retry issues nothing: no event.
    expect(
      (
        await api("/api/v1/documents", {
          method: "POST",
          body: JSON.stringify(body),
        })
      ).status,
    ).toBe(200);
    const correction = await json(
      await api(`/api/v1/documents/${first.uuid}`, {
        method: "PUT",
        body: JSON.stringify({ ...body, reference: "WH-0001-R1" }),
      }),
    );
    const qr = correction.url as string;
    expect((await fetch(qr)).status).toBe(200);
    // Within the first access's minute: served, and sent no event.
    expect((await fetch(qr)).status).toBe(200);
    const other = await issuedAndDeleted();

    const expected = [
      ["document.issued", first.uuid, undefined],
      ["document.issued", correction.uuid, undefined],
      ["document.rectified", first.uuid, undefined],
      ["document.accessed", correction.uuid, true],
      ["document.issued", other.uuid, undefined],
      ["document.deleted", other.uuid, undefined],
    ];
    await until(`${expected.length} events`, () => {
      return eventsOf(receiver.deliveries).length >= expected.length;
    });
    // Late duplicates or extra events would show here.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const events = eventsOf(receiver.deliveries);
    expect(
      events
        .map((event) => [event?.type, event?.data.uuid, event?.data.first])
        .sort(),
    ).toEqual(expected.sort());
    for (const delivery of receiver.deliveries) {
      expect(delivery.verifiedBy).toEqual([0]);
      expect(delivery.id).toBe(delivery.event?.id);
      expect(delivery.body).not.toContain("k=");
      expect(delivery.body).not.toMatch(/whsec_|sk_test_|sk_live_|order_id/);
      expect(delivery.body).not.toContain(body.shipper.name);
    }
    const issuedCorrection = events.find(
      (event) =>
        event?.type === "document.issued" &&
        event.data.uuid === correction.uuid,
    );
    expect(issuedCorrection?.data.rectifies_uuid).toBe(first.uuid);
  });

  it("retries a delivery the receiver refused, under the same webhook-id", async () => {
    let refusals = 2;
    const { receiver, secrets } = await receiverWith(() =>
      refusals-- > 0 ? 500 : 200,
    );
    const endpoint = await createEndpoint(receiver.url, QUIET);
    secrets.push(endpoint.secret);
    // A fact's event (a ping is tried once): a deletion.
    await issuedAndDeleted();
    await until("the delivery that succeeds", () =>
      receiver.deliveries.some((delivery) => delivery.status === 200),
    );
    const statuses = receiver.deliveries.map((delivery) => delivery.status);
    expect(statuses).toEqual([500, 500, 200]);
    expect(
      new Set(receiver.deliveries.map((delivery) => delivery.id)).size,
    ).toBe(1);
  });

  it("signs with both the old and the new secret after a rotation", async () => {
    const { receiver, secrets } = await receiverWith();
    const endpoint = await createEndpoint(receiver.url, QUIET);
    secrets.push(endpoint.secret);
    const rotated = await json(
      await api(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
        method: "POST",
      }),
    );
    secrets.push(rotated.secret as string);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await api(`/api/v1/webhook-endpoints/${endpoint.id}/test`, {
      method: "POST",
    });
    await until("the ping", () => receiver.deliveries.length > 0);
    expect(receiver.deliveries[0]?.verifiedBy).toEqual([0, 1]);
  });
});

/** `npm run webhooks:listen -- ARGS` under `key`, read from DECA_API_KEY. */
function listen(...args: string[]) {
  const child: ChildProcess = spawn(
    "npm",
    [
      "run",
      "--silent",
      "webhooks:listen",
      "--",
      "--url",
      `http://localhost:${service.port}`,
      ...args,
    ],
    { detached: true, env: { ...process.env, DECA_API_KEY: key } },
  );
  const listener = {
    stdout: "",
    stderr: "",
    exited: new Promise<number>((resolve) =>
      child.once("exit", (code) => resolve(code ?? -1)),
    ),
    /** Ctrl-C, then its exit. */
    stop: async () => {
      if (child.exitCode === null)
        process.kill(-(child.pid as number), "SIGINT");
      return listener.exited;
    },
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    listener.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    listener.stderr += chunk.toString();
  });
  return listener;
}

/** The listener's endpoint, as the endpoints API lists it. */
async function listenerEndpoints() {
  const listed = await json<{
    data: Array<{ id: string; description: string; enabled: boolean }>;
  }>(await api("/api/v1/webhook-endpoints"));
  return listed.data.filter(
    (endpoint) => endpoint.description === "npm run webhooks:listen",
  );
}

/** The id of the event `type` of `uuid`, once the events API lists it. */
async function eventOf(type: string, uuid: string): Promise<string> {
  let id: string | undefined;
  await until(
    `the ${type} of ${uuid} listed`,
    () => id !== undefined,
    60_000,
    async () => {
      const page = await json<{ data: Array<{ id: string }> }>(
        await api(`/api/v1/events?type=${type}&document_uuid=${uuid}`),
      );
      id = page.data[0]?.id;
    },
  );
  return id as string;
}

const issue = async () =>
  json(
    await api("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify(minimalRequest()),
    }),
  );

describe("npm run webhooks:listen", () => {
  it("registers a loopback endpoint, prints each verified event, and disables it on Ctrl-C", async () => {
    const listener = listen();
    try {
      await until("the listener", () => /Listening on/.test(listener.stderr));
      const document = await issue();
      await until("the printed event", () =>
        listener.stdout.includes(document.uuid as string),
      );
      const printed = listener.stdout
        .trim()
        .split("\n")
        .map(
          (line) =>
            JSON.parse(line) as { type: string; data: { uuid: string } },
        );
      expect(printed).toContainEqual(
        expect.objectContaining({
          type: "document.issued",
          data: expect.objectContaining({ uuid: document.uuid }),
        }),
      );
    } finally {
      await listener.stop();
    }
    // Kept, with its secret, for the next run; sent nothing meanwhile.
    expect(await listenerEndpoints()).toEqual([
      expect.objectContaining({ enabled: false }),
    ]);
  });

  it("forwards each delivery unchanged to --forward-to, signed with the secret --print-secret shows, and replays past events by --since and by id", async () => {
    const printed = listen("--print-secret");
    expect(await printed.exited).toBe(0);
    const secret = printed.stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // The same secret on every run, for one endpoint.
    const again = listen("--print-secret");
    expect(await again.exited).toBe(0);
    expect(again.stdout.trim()).toBe(secret);

    // Two past events: one named by its id, one after --since.
    const named = await issue();
    const namedEvent = await eventOf("document.issued", named.uuid as string);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const recent = await issue();
    const recentEvent = await eventOf("document.issued", recent.uuid as string);

    // The integrator's receiver, verifying by the Standard Webhooks algorithm.
    const { receiver, secrets } = await receiverWith();
    secrets.push(secret);
    const listener = listen(
      "--forward-to",
      receiver.url,
      "--since",
      since,
      "--events",
      namedEvent,
    );
    try {
      await until("the listener", () => /Listening on/.test(listener.stderr));
      const live = await issue();
      const liveEvent = await eventOf("document.issued", live.uuid as string);
      const wanted = [namedEvent, recentEvent, liveEvent];
      await until("the forwarded deliveries", () =>
        wanted.every((id) =>
          receiver.deliveries.some((delivery) => delivery.id === id),
        ),
      );
      for (const id of wanted) {
        const delivery = receiver.deliveries.find((each) => each.id === id);
        expect(delivery?.verifiedBy).toEqual([0]);
        expect(delivery?.status).toBe(200);
        // The service's own headers, not the forwarder's.
        expect(delivery?.headers["user-agent"]).toBe("DeCA-Webhooks/1");
      }
      // Nothing before --since but the event named.
      expect(
        receiver.deliveries.every((delivery) => wanted.includes(delivery.id)),
      ).toBe(true);
      await until("the receiver's answer printed", () =>
        listener.stderr.includes(`${liveEvent} → ${receiver.url}: 200`),
      );
    } finally {
      await listener.stop();
    }
    expect(await listenerEndpoints()).toHaveLength(1);
  });
});

/** The receivers of docs/webhooks.md, each run as the docs say, on PORT. */
const RECEIVERS = [
  { language: "Node", command: "node", args: ["docs/receivers/receiver.mjs"] },
  {
    language: "Python",
    command: "python3",
    args: ["docs/receivers/receiver.py"],
  },
  {
    language: "PHP",
    command: "php",
    args: (port: number) => [
      "-S",
      `127.0.0.1:${port}`,
      "docs/receivers/receiver.php",
    ],
  },
  { language: "Java", command: "java", args: ["docs/receivers/Receiver.java"] },
  {
    language: "C#",
    command: "dotnet",
    args: ["run", "docs/receivers/Receiver.cs"],
  },
].map((receiver) => ({
  ...receiver,
  present:
    spawnSync("sh", ["-c", `command -v ${receiver.command}`]).status === 0,
}));

describe.each(RECEIVERS)(
  "the $language receiver of docs/webhooks.md",
  (sample) => {
    if (!sample.present) {
      console.warn(
        `${sample.language} receiver not run: no ${sample.command} on this machine`,
      );
    }
    it.runIf(sample.present)(
      "accepts a genuine delivery and refuses a tampered or stale one",
      async () => {
        const port = await freePort();
        const endpoint = await createEndpoint(
          `http://127.0.0.1:${port}/webhooks`,
          QUIET,
        );
        const args =
          typeof sample.args === "function" ? sample.args(port) : sample.args;
        const child = spawn(sample.command, args, {
          detached: true,
          env: {
            ...process.env,
            PORT: String(port),
            DECA_WEBHOOK_SECRET: endpoint.secret,
          },
        });
        let output = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.stderr?.on("data", (chunk: Buffer) => {
          output += chunk.toString();
        });
        const post = (headers: Record<string, string>, body: string) =>
          fetch(`http://127.0.0.1:${port}/webhooks`, {
            method: "POST",
            headers: { "Content-Type": "application/json", ...headers },
            body,
          });
        try {
          // Ready once it answers (a 400 to a GET), or failed once it exited.
          let answered = false;
          await until(
            `the ${sample.language} receiver`,
            () => answered || child.exitCode !== null,
            60_000,
            async () => {
              answered = await fetch(`http://127.0.0.1:${port}/webhooks`).then(
                () => true,
                () => false,
              );
            },
          );
          expect(child.exitCode, output).toBeNull();
          // A real delivery: the service's ping, delivered once the receiver answers 2xx.
          const ping = await json(
            await api(`/api/v1/webhook-endpoints/${endpoint.id}/test`, {
              method: "POST",
            }),
          );
          let status = "";
          await until(
            "the ping delivered",
            () => status === "delivered",
            60_000,
            async () => {
              const event = await json<{
                deliveries: Array<{ status: string }>;
              }>(await api(`/api/v1/events/${ping.id}`));
              status = event.deliveries[0]?.status ?? "";
            },
          );
          expect(output).toContain(ping.id);

          const signed = (body: string, at: Date) => ({
            "webhook-id": "evt_000000000000000000000001",
            "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
            "webhook-signature": new Webhook(endpoint.secret).sign(
              "evt_000000000000000000000001",
              at,
              body,
            ),
          });
          const body = JSON.stringify({
            id: "evt_000000000000000000000001",
            type: "ping",
            data: {},
          });
          expect(
            (await post(signed(body, new Date()), body)).status,
          ).toBeLessThan(300);
          const tampered = await post(
            signed(body, new Date()),
            body.replace("ping", "pong"),
          );
          expect(tampered.status).toBe(400);
          const stale = await post(
            signed(body, new Date(Date.now() - 6 * 60_000)),
            body,
          );
          expect(stale.status).toBe(400);
        } finally {
          if (child.exitCode === null) {
            const exited = new Promise((resolve) =>
              child.once("exit", resolve),
            );
            process.kill(-(child.pid as number), "SIGTERM");
            await exited;
          }
          await api(`/api/v1/webhook-endpoints/${endpoint.id}`, {
            method: "DELETE",
          });
        }
      },
    );
  },
);

it("docs/webhooks.md links every receiver that the test runs", async () => {
  const doc = await readFile("docs/webhooks.md", "utf8");
  for (const { args } of RECEIVERS) {
    const file = (typeof args === "function" ? args(0) : args).find((arg) =>
      arg.startsWith("docs/receivers/"),
    );
    expect(doc).toContain(`](${file?.replace("docs/", "")})`);
  }
});
