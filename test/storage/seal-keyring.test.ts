import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parseSealKeyring } from "../../src/storage/seal-keyring";

/** The bound keyring with its environments' seals given as `swap` says. */
const swapped = (swap: Record<string, string>): string => {
  const keyring = JSON.parse(env.SEAL_KEYRING) as {
    current: string;
    keys: Record<string, Record<string, unknown>>;
  };
  const seals = keyring.keys[keyring.current] ?? {};
  const changed = Object.fromEntries(
    Object.entries(seals).map(([name, seal]) => [
      name,
      seals[swap[name] ?? name] ?? seal,
    ]),
  );
  return JSON.stringify({
    current: keyring.current,
    keys: { [keyring.current]: changed },
  });
};

describe("SEAL_KEYRING", () => {
  it("reads each environment's seal, its certificate's subject and chain", () => {
    const keyring = parseSealKeyring(env.SEAL_KEYRING);
    const seals = keyring.seals.get(keyring.current);
    expect(seals?.test.chain[0]?.subject).toBe(
      "CN=DeCA sello de PRUEBAS (local), O=DeCA local, C=ES",
    );
    expect(seals?.demo.chain[0]?.commonName).toBe("DeCA sello DEMO (local)");
    expect(seals?.live.chain).toHaveLength(2);
  });

  it("refuses a test or demo document's seal whose name does not say so, and a live seal whose name says PRUEBAS or DEMO", () => {
    for (const [swap, message] of [
      [
        { test: "live" },
        /the test seal's certificate must have a subject that names PRUEBAS/,
      ],
      [
        { demo: "test" },
        /the demo seal's certificate must have a subject that names DEMO/,
      ],
      [
        { live: "demo" },
        /the live seal's certificate must have a subject that names neither PRUEBAS nor DEMO/,
      ],
    ] as const) {
      expect(() => parseSealKeyring(swapped(swap))).toThrow(message);
    }
  });

  it("names SEAL_KEYRING and never quotes it when it does not parse", () => {
    const secret = JSON.stringify({
      current: "v1",
      keys: { v1: { live: { key: "c2VjcmV0IQ==", chain: ["bm90IGRlcg=="] } } },
    });
    expect(() => parseSealKeyring(secret)).toThrow(/SEAL_KEYRING/);
    try {
      parseSealKeyring(secret);
    } catch (error) {
      expect((error as Error).message).not.toContain("c2VjcmV0IQ==");
    }
  });
});
