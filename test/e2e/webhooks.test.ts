import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fullRequest,
  minimalRequest,
  type RequestBody,
} from "../../fixtures/requests";
import {
  apiClient,
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

/** Waits until `ready` holds, or fails after `ms` saying what it waited for. */
async function until(what: string, ready: () => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!ready()) {
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

const json = async (response: Response) => {
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as Record<string, string>;
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

describe("npm run webhooks:listen", () => {
  it("registers a loopback endpoint, prints each verified event, and deletes it on Ctrl-C", async () => {
    const listener: ChildProcess = spawn(
      "npm",
      [
        "run",
        "--silent",
        "webhooks:listen",
        "--",
        "--key",
        key,
        "--url",
        `http://localhost:${service.port}`,
      ],
      { detached: true },
    );
    let stdout = "";
    let stderr = "";
    listener.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    listener.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      await until("the listener", () => /Listening on/.test(stderr));
      const document = await json(
        await api("/api/v1/documents", {
          method: "POST",
          body: JSON.stringify(minimalRequest()),
        }),
      );
      await until("the printed event", () =>
        stdout.includes(document.uuid as string),
      );
      const printed = stdout
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
      const exited = new Promise((resolve) => listener.once("exit", resolve));
      process.kill(-(listener.pid as number), "SIGINT");
      await exited;
    }
    const endpoints = await json(await api("/api/v1/webhook-endpoints"));
    expect(endpoints.data).toEqual(
      expect.not.arrayContaining([
        expect.objectContaining({ description: "npm run webhooks:listen" }),
      ]),
    );
  });
});
