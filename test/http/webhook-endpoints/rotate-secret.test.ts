import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseKeyring } from "../../../src/storage/keyring";
import { openWebhookSecret } from "../../../src/storage/webhook-secret-box";
import { createCredential } from "../../helpers/credentials";
import {
  endpointRow,
  webhookEndpointsApi,
} from "../../helpers/webhook-endpoints";
import { callWithClock, fixedClock } from "../../helpers/worker";

// A rotation shows a new secret once; the one it replaces keeps signing for
// 24 hours (previous_secret, until previous_secret_expires_at), which the
// deliveries read to sign with both.

const NOW = Date.UTC(2026, 10, 21, 8, 30);
const HOUR = 3_600_000;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const keyring = parseKeyring(env.WEBHOOK_KEYRING, "WEBHOOK_KEYRING");

/** The endpoint's secrets as stored, opened, and until when the previous one signs. */
async function storedSecrets(credentialId: string, id: string) {
  const row = await endpointRow(credentialId, id);
  const open = (sealed: unknown) =>
    sealed === null ? null : openWebhookSecret(keyring, id, sealed as string);
  return {
    current: await open(row?.secret),
    previous: await open(row?.previous_secret),
    previousUntil: row?.previous_secret_expires_at,
  };
}

describe("rotating an endpoint's secret", () => {
  it("shows the new secret once; the old one signs beside it for 24 hours; a second rotation within them replaces the old one", async () => {
    const clock = fixedClock(NOW);
    const credential = await createCredential();
    const api = webhookEndpointsApi(callWithClock(clock), credential.key);
    const created = await api.register();
    expect(created.previous_secret_expires_at).toBeNull();
    expect(await storedSecrets(credential.id, created.id)).toEqual({
      current: created.secret,
      previous: null,
      previousUntil: null,
    });

    clock.advance(HOUR);
    const response = await api.rotate(created.id);
    expect(response.status).toBe(200);
    const first = (await response.json()) as typeof created;
    const { secret: _, ...endpoint } = created;
    const previousUntil = new Date(NOW + HOUR + 24 * HOUR).toISOString();
    expect(first).toEqual({
      ...endpoint,
      previous_secret_expires_at: previousUntil,
      updated_at: new Date(NOW + HOUR).toISOString(),
      secret: expect.stringMatching(SECRET),
    });
    expect(first.secret).not.toBe(created.secret);
    expect(await storedSecrets(credential.id, created.id)).toEqual({
      current: first.secret,
      previous: created.secret,
      previousUntil: NOW + HOUR + 24 * HOUR,
    });
    const shown = await (await api.get(created.id)).json();
    expect(shown).toMatchObject({ previous_secret_expires_at: previousUntil });
    expect(JSON.stringify(shown)).not.toContain("whsec_");

    clock.advance(HOUR);
    const second = (await (await api.rotate(created.id)).json()) as {
      secret: string;
    };
    expect(await storedSecrets(credential.id, created.id)).toEqual({
      current: second.secret,
      previous: first.secret,
      previousUntil: NOW + 2 * HOUR + 24 * HOUR,
    });
  });

  it("answers 404 for an endpoint the key does not have", async () => {
    const credential = await createCredential();
    const api = webhookEndpointsApi(
      callWithClock(fixedClock(NOW)),
      credential.key,
    );
    const response = await api.rotate("we_000000000000000000000000");
    expect(response.status).toBe(404);
  });
});
