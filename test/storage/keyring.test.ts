import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keyOfVersion, parseKeyring } from "../../src/storage/keyring";
import { newKey } from "./keyrings";

describe("keyring", () => {
  it("reads the bound secrets", () => {
    for (const name of ["PDF_KEYRING", "QR_KEYRING"] as const) {
      const keyring = parseKeyring(env[name], name);
      expect(keyring.current).toBe("v1");
      expect(keyOfVersion(keyring, "v1")).toHaveLength(32);
    }
  });

  it("decodes every version's key", () => {
    const v1 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    const keyring = parseKeyring(
      JSON.stringify({ current: "v2", keys: { v1, v2: newKey() } }),
      "PDF_KEYRING",
    );
    expect(keyring.current).toBe("v2");
    expect([...keyring.keys.keys()]).toEqual(["v1", "v2"]);
    expect([...keyOfVersion(keyring, "v1")]).toEqual(
      Array.from({ length: 32 }, (_, index) => index),
    );
  });

  it("parses a secret value once", () => {
    const secret = JSON.stringify({ current: "v1", keys: { v1: newKey() } });
    expect(parseKeyring(secret, "PDF_KEYRING")).toBe(
      parseKeyring(secret, "PDF_KEYRING"),
    );
  });

  it("shows no key when serialized", () => {
    const key = newKey();
    const keyring = parseKeyring(
      JSON.stringify({ current: "v1", keys: { v1: key } }),
      "PDF_KEYRING",
    );
    expect(JSON.stringify(keyring)).toBe('{"current":"v1","keys":{}}');
  });

  it("names an unknown version", () => {
    const keyring = parseKeyring(
      JSON.stringify({ current: "v1", keys: { v1: newKey() } }),
      "PDF_KEYRING",
    );
    expect(() => keyOfVersion(keyring, "v0")).toThrow(
      'the keyring has no key version "v0"',
    );
  });

  // Each secret carries the key `KEY`; no message may contain it or a part of it.
  const KEY = newKey();
  const SHORT_KEY = btoa("x".repeat(31));
  const LONG_KEY = btoa("x".repeat(33));
  it.each([
    ["not JSON", `{"current":"v1","keys":{"v1":"${KEY}"}`, "is not valid JSON"],
    ["an array", JSON.stringify([KEY]), "must be"],
    ["without current", JSON.stringify({ keys: { v1: KEY } }), "must be"],
    [
      "with a number as current",
      JSON.stringify({ current: 1, keys: { 1: KEY } }),
      "must be",
    ],
    ["without keys", JSON.stringify({ current: "v1", v1: KEY }), "must be"],
    [
      "with keys as an array",
      JSON.stringify({ current: "0", keys: [KEY] }),
      "must be",
    ],
    [
      "with current not in keys",
      JSON.stringify({ current: "v2", keys: { v1: KEY } }),
      '"current" names no version in "keys"',
    ],
    [
      "with no keys",
      JSON.stringify({ current: "v1", keys: {} }),
      '"current" names no version in "keys"',
    ],
    [
      "with a key as the version name",
      JSON.stringify({ current: "v1", keys: { v1: KEY, [KEY]: KEY } }),
      "has a key version that is not",
    ],
    [
      "with an empty version name",
      JSON.stringify({ current: "v1", keys: { v1: KEY, "": KEY } }),
      "has a key version that is not",
    ],
    [
      "with a 31-byte key",
      JSON.stringify({ current: "v1", keys: { v1: KEY, v2: SHORT_KEY } }),
      'the key of version "v2" is not base64 of exactly 32 bytes',
    ],
    [
      "with a 33-byte key",
      JSON.stringify({ current: "v1", keys: { v1: KEY, v2: LONG_KEY } }),
      'the key of version "v2" is not base64 of exactly 32 bytes',
    ],
    [
      "with a key that is not base64",
      JSON.stringify({ current: "v1", keys: { v1: `${KEY.slice(0, 42)}!=` } }),
      'the key of version "v1" is not base64 of exactly 32 bytes',
    ],
    [
      "with a key as a number",
      JSON.stringify({ current: "v1", keys: { v1: 42 } }),
      'the key of version "v1" is not base64 of exactly 32 bytes',
    ],
  ])("rejects a keyring %s without quoting it", (_, secret, message) => {
    let error: unknown;
    try {
      parseKeyring(secret, "PDF_KEYRING");
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(Error);
    const { message: actual, cause } = error as Error;
    expect(actual).toMatch(/^PDF_KEYRING\b/);
    expect(actual).toContain(message);
    expect(cause).toBeUndefined();
    for (const key of [KEY, SHORT_KEY, LONG_KEY]) {
      expect(actual).not.toContain(key.slice(0, 8));
      expect(actual).not.toContain(key.slice(-12));
    }
  });
});
