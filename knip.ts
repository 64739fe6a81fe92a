import type { KnipConfig } from "knip";

// `npm run knip` (in .ci/run): no unused file, export or dependency. Knip's
// own plugins find the rest: wrangler.toml's main, the Vitest projects,
// package.json's scripts (tsx and its --import), drizzle and biome.
const config: KnipConfig = {
  entry: [
    "scripts/*.ts",
    "bench/{run,http,worker-cpu,write-bench-table,write-round-trip-table}.ts",
    // Bundled by esbuild in bench/run.ts, each run in a process of its own.
    "bench/{cold-entry,cold-child,heap-child}.ts",
    // wrangler.toml's [alias] and bench/run.ts put it in brotli's place.
    "src/pdf/no-brotli.ts",
    // wrangler.edge.toml's main, and the worker project's (vitest.config.ts).
    "src/edge.ts",
    "test/worker.ts",
  ],
  project: [
    "src/**/*.ts",
    "scripts/**/*.ts",
    "bench/**/*.ts",
    "test/**/*.ts",
    "fixtures/**/*.ts",
    "*.config.ts",
  ],
  // The seal's tests run the machine's OpenSSL and, where installed,
  // poppler's pdfsig (test/pdf/seal-tools.ts): verifiers that are not ours.
  ignoreBinaries: ["openssl", "pdfsig"],
  ignoreDependencies: [
    // Node 22 for the npm scripts, which put node_modules/.bin first.
    "node",
    // Copied into public/ by scripts/vendor-assets.ts (postinstall), found
    // there with require.resolve.
    "swagger-ui-dist",
    // The original fonts, read by path in scripts/lib/font-files.ts and
    // scripts/lib/fallback-font-files.ts and cut by `npm run fonts`.
    /^@expo-google-fonts\//,
    /^@fontsource\//,
  ],
};

export default config;
