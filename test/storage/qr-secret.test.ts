import { describe, expect, it } from "vitest";
import { deriveQrSecret, verifyQrSecret } from "../../src/storage/qr-secret";
import { keyringOf, newKey } from "./keyrings";

const UUID = "0b9f8c52-3d4e-4a71-9c2b-6f1e2d3c4b5a";
const OTHER_UUID = "7d1e4f08-92b3-4c6a-8e5d-1a2b3c4d5e6f";
const keyring = keyringOf({ v1: newKey(), v2: newKey() });

describe("QR secret", () => {
  it("is at least 22 URL-safe characters", async () => {
    expect(await deriveQrSecret(keyring, "v1", UUID)).toMatch(
      /^[A-Za-z0-9_-]{22,}$/,
    );
  });

  it("is derived the same way every time, so printed links keep working", async () => {
    // Known answer: HMAC-SHA-256 with the key 00 01 … 1f of "qr:<uuid>",
    // first 16 bytes in base64url. A change here breaks every printed QR code.
    const pinned = keyringOf({
      v1: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
    });
    expect(await deriveQrSecret(pinned, "v1", UUID)).toBe(
      "dHKHXt4WhKbves7eOey7yA",
    );
    expect(await deriveQrSecret(keyring, "v1", UUID)).toBe(
      await deriveQrSecret(keyring, "v1", UUID),
    );
  });

  it("differs per document and per key version", async () => {
    const secrets = new Set([
      await deriveQrSecret(keyring, "v1", UUID),
      await deriveQrSecret(keyring, "v1", OTHER_UUID),
      await deriveQrSecret(keyring, "v2", UUID),
      await deriveQrSecret(keyring, "v2", OTHER_UUID),
    ]);
    expect(secrets.size).toBe(4);
  });

  it("keeps a link issued under an old version after rotation", async () => {
    const before = keyringOf({ v1: newKey() });
    const [v1] = [...before.keys.values()];
    const after = keyringOf({
      v1: btoa(String.fromCharCode(...(v1 ?? []))),
      v2: newKey(),
    });
    const issued = await deriveQrSecret(before, before.current, UUID);
    expect(after.current).toBe("v2");
    expect(await verifyQrSecret(after, "v1", UUID, issued)).toBe(true);
  });

  it("accepts the document's own secret", async () => {
    const secret = await deriveQrSecret(keyring, "v1", UUID);
    expect(await verifyQrSecret(keyring, "v1", UUID, secret)).toBe(true);
  });

  it("rejects any other candidate", async () => {
    const secret = await deriveQrSecret(keyring, "v1", UUID);
    const last = secret.at(-1) === "A" ? "B" : "A";
    const candidates = [
      `${secret.slice(0, -1)}${last}`,
      secret.slice(0, -1),
      `${secret}A`,
      "",
      `${secret.slice(0, -1)}é`,
      await deriveQrSecret(keyring, "v1", OTHER_UUID),
      await deriveQrSecret(keyring, "v2", UUID),
    ];
    for (const candidate of candidates) {
      expect(
        await verifyQrSecret(keyring, "v1", UUID, candidate),
        candidate,
      ).toBe(false);
    }
  });

  it("names a key version the keyring lacks", async () => {
    await expect(deriveQrSecret(keyring, "v3", UUID)).rejects.toThrow(
      'the keyring has no key version "v3"',
    );
  });
});
