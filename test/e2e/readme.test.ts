import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../../scripts/lib/commands";

// README's examples as a reader runs them: every ```sh block that calls curl,
// in order, in one shell, against a fresh `npm start`. Only `BASE` (the
// service's address) and the state folder differ from what the reader types.
const execFileAsync = promisify(execFile);
const REPO = process.cwd();

let stateDir: string;
let workDir: string;
let readerDir: string | undefined;
let origin: string;
let service: RunningService;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "deca-readme-state-"));
  workDir = await mkdtemp(join(tmpdir(), "deca-readme-"));
  service = await startService(stateDir);
  origin = `http://localhost:${service.port}`;
});

afterAll(async () => {
  await service?.stop();
  await rm(stateDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
  if (readerDir) await rm(readerDir, { recursive: true, force: true });
});

async function readmeCurlBlocks(): Promise<string[]> {
  const readme = await readFile(join(REPO, "README.md"), "utf8");
  return [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1] ?? "")
    .filter((block) => /^\s*(\S+=\$\()?curl /m.test(block));
}

describe("README", () => {
  it("has curl examples for the whole quick start and the demo", async () => {
    const script = (await readmeCurlBlocks()).join("\n");
    for (const step of [
      "npm run keys -- create",
      'cd "$(mktemp -d)"',
      '-X POST "$BASE/api/v1/documents"',
      "/api/v1/documents/$UUID/pdf",
      "/api/v1/documents/$NEW_UUID/pdf",
      '"$QR_URL"',
      "/api/v1/documents/$UUID/qr",
      "/qr?format=png",
      "-X PUT",
      "-X DELETE",
      "/api/v1/documents/validate",
      "/api/v1/demo/tokens",
    ]) {
      expect(script).toContain(step);
    }
  });

  it("runs every curl example as written", async () => {
    const script = [
      "set -euo pipefail",
      // An error status fails the run, as it would surprise the reader.
      'curl() { command curl --fail-with-body "$@"; }',
      ...(await readmeCurlBlocks()),
      // Where the blocks moved to (`cd "$(mktemp -d)"`), for the checks below.
      "printf '\\nFOLDER=%s\\n' \"$PWD\"",
    ]
      .join("\n")
      .replaceAll(
        "npm run keys -- ",
        `npm --prefix '${REPO}' run keys -- --persist-to '${stateDir}' `,
      );
    const { stdout } = await execFileAsync("bash", ["-c", script], {
      cwd: workDir,
      env: { ...process.env, BASE: origin },
    });
    readerDir = /^FOLDER=(.+)$/m.exec(stdout)?.[1];
    // Nothing lands where the reader started (the repository, for them).
    expect(await readdir(workDir)).toEqual([]);
    const files = readerDir ?? "";
    expect(stdout).toContain('{"data":[],"meta":{"current_page":1');
    expect(stdout).toMatch(/\b201\n/);
    expect(stdout).toContain('{"status":"active"}');
    expect(stdout).toMatch(/\b204\n/);
    expect(stdout).toContain('"total":1,');
    // The correction's PDF, downloaded before the correction is deleted.
    for (const pdf of [
      "documento.pdf",
      "correccion.pdf",
      "qr.pdf",
      "demo.pdf",
    ]) {
      const bytes = await readFile(join(files, pdf));
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    }
    const png = await readFile(join(files, "qr.png"));
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(await readFile(join(files, "qr.svg"), "utf8")).toMatch(/^<svg /);
    const correction = JSON.parse(
      await readFile(join(files, "correction-result.json"), "utf8"),
    );
    expect(correction.data.goods.weight_kg).toBe("12000");
    expect(correction.rectifies_uuid).toMatch(/^[0-9a-f-]{36}$/);
    const readJson = async (name: string) =>
      JSON.parse(await readFile(join(files, name), "utf8"));
    const [document, check, route] = await Promise.all(
      ["document.json", "route-check.json", "route-document.json"].map(
        readJson,
      ),
    );
    // Dated today at the origin, whatever day the reader runs it: no warning.
    expect(document).not.toHaveProperty("warnings");
    expect(correction).not.toHaveProperty("warnings");
    expect(check).not.toHaveProperty("warnings");
    expect(check.data.shipments).toHaveLength(2);
    expect(check.pdf.pages).toBeGreaterThan(0);
    expect(route.data).toEqual(check.data);
  });
});
