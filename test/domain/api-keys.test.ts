import { describe, expect, it } from "vitest";
import {
  environmentOfKey,
  generateApiKey,
  hashApiKey,
  keyDisplayParts,
} from "../../src/domain/api-keys";

describe("API keys", () => {
  it.each(["test", "live", "demo"] as const)(
    "issues %s keys with the prefix and at least 32 random base62 characters",
    (environment) => {
      const key = generateApiKey(environment);
      expect(key).toMatch(new RegExp(`^sk_${environment}_[0-9A-Za-z]{32,}$`));
      expect(environmentOfKey(key)).toBe(environment);
    },
  );

  it("never issues the same key twice", () => {
    const keys = new Set(
      Array.from({ length: 1000 }, () => generateApiKey("test")),
    );
    expect(keys.size).toBe(1000);
  });

  it("uses every base62 character", () => {
    const seen = new Set(
      Array.from({ length: 200 }, () => generateApiKey("live").slice(8)).join(
        "",
      ),
    );
    expect(seen.size).toBe(62);
  });

  it.each([
    `sk_prod_${"a".repeat(32)}`,
    `sk_test_${"a".repeat(31)}`,
    `sk_test_${"a".repeat(31)}-`,
    `SK_TEST_${"a".repeat(32)}`,
    `sk_test_${"a".repeat(32)}\n`,
    "",
  ])("recognises no environment in %j", (key) => {
    expect(environmentOfKey(key)).toBeNull();
  });

  it("hashes with SHA-256 in hex", async () => {
    expect(await hashApiKey("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("shows only the prefix and the last four characters", () => {
    const key = `sk_live_${"x".repeat(36)}AbCd`;
    expect(keyDisplayParts(key)).toEqual({
      prefix: "sk_live_",
      lastFour: "AbCd",
    });
  });
});
