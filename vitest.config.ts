import { readFile } from "node:fs/promises";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { unstable_readConfig } from "wrangler";
import { PERFORMANCE_DOC } from "./bench/performance-doc.js";
import { fontFilesAsArrayBuffers } from "./scripts/lib/font-modules.js";

const testKeyring = (seed: string) =>
  JSON.stringify({ current: "v1", keys: { v1: btoa(seed.padEnd(32, "0")) } });

// The pages' assets are the edge Worker's; the worker project's Worker
// (test/worker.ts) is both Workers in one, on wrangler.toml's bindings.
const edgeAssets = unstable_readConfig(
  { config: "wrangler.edge.toml" },
  { hideWarnings: true },
).assets;
if (!edgeAssets?.directory) throw new Error("wrangler.edge.toml: no [assets]");

// Each file of a project with isolation gets a workerd of its own and empty
// storage, which costs about 6 s a file; the "worker" project's files share
// one workerd a worker process and its storage, so each of them asserts only
// on what it wrote. These files look at everything a shard, a bucket or a
// Durable Object holds (sweeps, budgets, a rebalance, "nothing left"), run
// the cron (which works on whatever backlog the storage holds), or count an
// IP's requests at a fixed time, so each runs alone.
const ALONE = [
  "test/events/cron.test.ts",
  "test/events/delivery.test.ts",
  "test/events/faults.test.ts",
  "test/events/gate-faults.test.ts",
  "test/http/demo.test.ts",
  "test/http/documents/dry-run.test.ts",
  "test/http/documents/faults.test.ts",
  "test/http/documents/lost-answers.test.ts",
  "test/http/documents/qr-settled.test.ts",
  "test/http/documents/races.test.ts",
  "test/http/documents/shards.test.ts",
  "test/http/security/rate-limit.test.ts",
  "test/scheduled/**/*.test.ts",
  "test/http/**/*rebalanc*.test.ts",
];

const testMigrations = await readD1Migrations("./migrations");
const performanceDoc = await readFile(PERFORMANCE_DOC, "utf8");
// The seals of fixtures/seal.ts, as one line.
const sealKeyring = JSON.stringify(
  JSON.parse(await readFile("fixtures/seal-keyring.json", "utf8")),
);

/** The Worker's tests inside workerd, against real local D1, R2 and Durable Objects. */
function workerProject(name: string, { isolate }: { isolate: boolean }) {
  return {
    plugins: [
      cloudflareTest({
        main: "./test/worker.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          assets: {
            directory: edgeAssets.directory,
            binding: edgeAssets.binding,
            assetConfig: {
              html_handling: edgeAssets.html_handling,
              not_found_handling: edgeAssets.not_found_handling,
            },
          },
          bindings: {
            // wrangler also reads vars from process.env when there is no
            // .dev.vars (a fresh clone), and vitest puts BASE_URL="/" there.
            BASE_URL: "",
            TEST_MIGRATIONS: testMigrations,
            PDF_KEYRING: testKeyring("test-pdf-key"),
            QR_KEYRING: testKeyring("test-qr-key"),
            SUPPORT_KEYRING: testKeyring("test-support-key"),
            WEBHOOK_KEYRING: testKeyring("test-webhook-key"),
            SEAL_KEYRING: sealKeyring,
            // A gate's key version names the gate and its rotation.
            GATE_KEYRING: JSON.stringify({
              current: "es-gate.2027-07",
              keys: {
                "es-gate.2027-07": btoa("test-gate-key".padEnd(32, "0")),
              },
            }),
            // Read only: the round-trip test compares its table with
            // this text; `npm run roundtrips:table` rewrites the file.
            PERFORMANCE_DOC_TEXT: performanceDoc,
          },
          // The cut fallback fonts, read from disk for the setup file
          // that puts them into the FONTS bucket (seed-fonts.ts).
          serviceBindings: {
            FONT_FILES: async (request: Request) =>
              new Response(
                await readFile(
                  `fonts/fallback/${new URL(request.url).pathname.slice(1)}.ttf`,
                ),
              ),
          },
        },
      }),
    ],
    test: {
      name,
      isolate,
      ...(isolate
        ? { include: ALONE }
        : {
            include: ["test/**/*.test.ts"],
            exclude: ["test/e2e/**", "test/pdf/**", "test/efti/**", ...ALONE],
          }),
      setupFiles: [
        "./test/setup/apply-migrations.ts",
        "./test/setup/seed-fonts.ts",
      ],
      // Limits for a hang, not for pace: a test that issues and renders
      // PDFs may be slow on a small, loaded machine, never flaky.
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig({
  test: {
    silent: "passed-only" as const,
    // Two files at a time, even on two cores: the commands project's files
    // mostly wait on the wrangler processes they start, while a worker file
    // keeps a core busy (the suite: 766 s one at a time, 509 s two at a time).
    maxWorkers: 2,
    projects: [
      workerProject("worker", { isolate: false }),
      workerProject("worker-alone", { isolate: true }),
      {
        // The PDF renderer in Node, where MuPDF.js and ZXing read its output.
        plugins: [fontFilesAsArrayBuffers()],
        test: {
          name: "pdf",
          include: ["test/pdf/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        // The eFTI export in Node, validated against the vendored XSD by
        // xmllint compiled to WebAssembly.
        test: {
          name: "efti",
          include: ["test/efti/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        // The commands a person runs: npm start and the key tool, in Node, and
        // the pages in the machine's Chrome or Chromium.
        test: {
          name: "commands",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["./test/e2e/find-chromium.ts"],
          environment: "node",
          testTimeout: 120_000,
          // npm start in a beforeAll takes up to 180 s on a loaded machine (scripts/lib/commands.ts).
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
