import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_ENDPOINTS } from "../../../src/domain/webhooks/endpoints";
import { createCredential } from "../../helpers/credentials";
import { d1Before } from "../../helpers/faults";
import { webhookEndpointsApi } from "../../helpers/webhook-endpoints";
import { callWithClock, fixedClock } from "../../helpers/worker";

// At most 16 endpoints a key, decided by the insert's own condition: racing
// creates cannot pass it together, with no lock.

const NOW = Date.UTC(2026, 10, 21, 8, 30);
const BODY = { url: "https://receiver.example/hooks", events: ["*"] };

async function keyWith(count: number) {
  const request = callWithClock(fixedClock(NOW));
  const credential = await createCredential();
  const api = webhookEndpointsApi(request, credential.key);
  for (let n = 0; n < count; n++) await api.register(BODY);
  return { credential, api };
}

const countOf = async (api: ReturnType<typeof webhookEndpointsApi>) =>
  ((await (await api.list()).json()) as { data: unknown[] }).data.length;

async function expectLimitReached(response: Response) {
  expect(response.status).toBe(409);
  expect(await response.json()).toEqual({
    errors: [
      {
        field: null,
        code: "WEBHOOK_ENDPOINT_LIMIT",
        message: expect.stringContaining(
          `${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`,
        ),
      },
    ],
  });
}

describe("the limit of 16 webhook endpoints a key", () => {
  it("takes the 16th, answers the 17th 409 WEBHOOK_ENDPOINT_LIMIT, and takes one again after a deletion", async () => {
    expect(MAX_WEBHOOK_ENDPOINTS).toBe(16);
    const { api } = await keyWith(15);
    const sixteenth = await api.register(BODY);
    await expectLimitReached(await api.create(BODY));
    expect(await countOf(api)).toBe(16);
    // Another key's endpoints do not count.
    const other = await keyWith(0);
    expect((await other.api.create(BODY)).status).toBe(201);
    expect((await api.remove(sixteenth.id)).status).toBe(204);
    expect((await api.create(BODY)).status).toBe(201);
  });

  it("lets only one of two parallel creates at 15 pass", async () => {
    const { api } = await keyWith(15);
    const statuses = (
      await Promise.all([api.create(BODY), api.create(BODY)])
    ).map((response) => response.status);
    expect(statuses.sort()).toEqual([201, 409]);
    expect(await countOf(api)).toBe(16);
  });

  it("refuses a create whose insert comes just after another create took the last place", async () => {
    const { credential, api } = await keyWith(15);
    let landed = 0;
    const racing = webhookEndpointsApi(
      callWithClock(
        fixedClock(NOW),
        d1Before(/insert into "webhook_endpoints"/, async () => {
          landed = (await api.create(BODY)).status;
        }),
      ),
      credential.key,
    );
    await expectLimitReached(await racing.create(BODY));
    expect(landed).toBe(201);
    expect(await countOf(api)).toBe(16);
  });
});
