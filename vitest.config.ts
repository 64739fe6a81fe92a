import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { fontFilesAsArrayBuffers } from "./scripts/lib/font-modules.js";

const testKeyring = (seed: string) =>
  JSON.stringify({ current: "v1", keys: { v1: btoa(seed.padEnd(32, "0")) } });

export default defineConfig({
  test: {
    silent: "passed-only" as const,
    projects: [
      {
        // Everything about the Worker runs inside workerd against real local
        // D1, R2 and Durable Objects; storage is isolated per test file.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
                PDF_KEYRING: testKeyring("test-pdf-key"),
                QR_KEYRING: testKeyring("test-qr-key"),
              },
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/pdf/**"],
          setupFiles: ["./test/setup/apply-migrations.ts"],
        },
      },
      {
        // The PDF renderer in Node, where poppler, zbar and qpdf read its output.
        plugins: [fontFilesAsArrayBuffers()],
        test: {
          name: "pdf",
          include: ["test/pdf/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
        },
      },
      {
        // The commands a person runs: npm start and the key tool, in Node.
        test: {
          name: "commands",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
