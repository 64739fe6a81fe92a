import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ensureDevVars, readDevVars } from "../../scripts/lib/dev-vars";
import { parseKeyring } from "../../src/storage/keyring";
import { parseSealKeyring } from "../../src/storage/seal-keyring";

// npm start's local secrets: .dev.vars, written with a new keyring for each
// secret wrangler.toml requires, and completed when an older one lacks a
// keyring added since.

const KEYRINGS = [
  "PDF_KEYRING",
  "QR_KEYRING",
  "SUPPORT_KEYRING",
  "WEBHOOK_KEYRING",
  "GATE_KEYRING",
];

describe("npm start's .dev.vars", () => {
  const home = process.cwd();
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "deca-dev-vars-"));
    process.chdir(folder);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    process.chdir(home);
    await rm(folder, { recursive: true, force: true });
  });

  it("is written with a keyring for every secret, readable by its owner only", async () => {
    await ensureDevVars();
    const vars = await readDevVars();
    for (const name of KEYRINGS) {
      expect(parseKeyring(vars[name] ?? "", name).keys.size).toBe(1);
    }
    expect((await stat(".dev.vars")).mode & 0o777).toBe(0o600);
  });

  it("is written with a SEAL_KEYRING whose test and demo seals say so", async () => {
    await ensureDevVars();
    const { SEAL_KEYRING } = await readDevVars();
    const { current, seals } = parseSealKeyring(SEAL_KEYRING ?? "");
    const seal = seals.get(current);
    expect(seal?.test.chain[0]?.subject).toContain("PRUEBAS");
    expect(seal?.demo.chain[0]?.subject).toContain("DEMO");
  });

  it.each([
    [
      "WEBHOOK_KEYRING",
      (value: string) => parseKeyring(value, "WEBHOOK_KEYRING"),
    ],
    ["SEAL_KEYRING", parseSealKeyring],
  ])(
    "gets %s added when an older one lacks it, the others kept as they were",
    async (name, parse) => {
      await ensureDevVars();
      const written = await readFile(".dev.vars", "utf8");
      const older = written
        .split("\n")
        .filter((line) => !line.startsWith(`${name}=`))
        .join("\n");
      await writeFile(".dev.vars", older);
      const before = await readDevVars();
      expect(before[name]).toBeUndefined();

      await ensureDevVars();
      const after = await readDevVars();
      expect(after).toEqual({ ...before, [name]: expect.any(String) });
      parse(after[name] ?? "");
      expect(console.error).toHaveBeenCalledWith(
        `Added new local ${name} to .dev.vars.`,
      );
    },
  );
});
