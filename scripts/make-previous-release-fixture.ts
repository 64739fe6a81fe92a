// `npm run fixture:previous-release [-- --commit C]`: remakes
// fixtures/previous-release from the release deployed before this one
// (PREVIOUS_COMMIT by default), in a clone that has it: its Worker built as
// `wrangler deploy` would upload it, and the state its own `npm start` left
// (migrated, with a development key). test/e2e/deploy-steps.test.ts runs
// that Worker between the steps of this commit's `npm run deploy`.
import { execFile } from "node:child_process";
import {
  copyFile,
  mkdir,
  readdir,
  readFile,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { gzipSync } from "node:zlib";
import {
  DEV_VARS_FILE,
  PREVIOUS_RELEASE,
  type PreviousRelease,
  RELEASE_FILE,
  STATE_FOLDER,
  WORKER_FOLDER,
  WRANGLER_FILE,
} from "../fixtures/previous-release";
import { startService } from "./lib/commands";
import { keepState, withCheckoutOf } from "./lib/fixture-state";

/** The last landed release: the one a deploy of this commit replaces. */
const PREVIOUS_COMMIT = "c1a741f";
const run = promisify(execFile);

/** Builds the checkout's Worker, minified as deployed, gzipped into `destination`. */
async function buildWorker(checkout: string, destination: string) {
  const bundle = join(checkout, "bundle");
  await run(
    "npx",
    ["wrangler", "deploy", "--dry-run", "--minify", "--outdir", bundle],
    { cwd: checkout, env: { ...process.env, CI: "true" } },
  );
  await mkdir(destination, { recursive: true });
  for (const file of await readdir(bundle)) {
    if (file.endsWith(".map") || file.endsWith(".md")) continue;
    const bytes = await readFile(join(bundle, file));
    await writeFile(join(destination, `${file}.gz`), gzipSync(bytes));
  }
}

/** The checkout's wrangler.toml, running the built Worker as it is. */
async function builtWorkerConfig(checkout: string): Promise<string> {
  const config = await readFile(join(checkout, "wrangler.toml"), "utf8");
  const main = 'main = "src/index.ts"';
  if (!config.includes(main)) throw new Error(`no ${main} in wrangler.toml`);
  return config.replace(
    main,
    `main = "${WORKER_FOLDER}/index.js"\nno_bundle = true\nfind_additional_modules = true`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { commit: { type: "string" } } });
  const commit = values.commit ?? PREVIOUS_COMMIT;
  const fixture = join(process.cwd(), PREVIOUS_RELEASE);
  await withCheckoutOf(commit, async (checkout, work) => {
    const stateDir = join(work, STATE_FOLDER);
    const service = await startService(stateDir, checkout);
    let key: string;
    try {
      const printed = /sk_test_[0-9A-Za-z]{32,}/.exec(service.output());
      if (!printed) throw new Error(`no key printed:\n${service.output()}`);
      key = printed[0];
    } finally {
      await service.stop();
    }
    await keepState(stateDir, join(fixture, STATE_FOLDER));
    await buildWorker(checkout, join(fixture, WORKER_FOLDER));
    await writeFile(
      join(fixture, WRANGLER_FILE),
      await builtWorkerConfig(checkout),
    );
    await copyFile(join(checkout, ".dev.vars"), join(fixture, DEV_VARS_FILE));
    const release: PreviousRelease = {
      made_from: commit,
      key,
      migrations: (await readdir(join(checkout, "migrations")))
        .filter((file) => file.endsWith(".sql"))
        .sort(),
    };
    await writeFile(
      join(fixture, RELEASE_FILE),
      `${JSON.stringify(release, null, 2)}\n`,
    );
    console.log(`Wrote ${fixture} from ${commit}.`);
  });
}

await main();
