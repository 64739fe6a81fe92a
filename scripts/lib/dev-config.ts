// `wrangler dev` with two configs gives `--var` to the first Worker only: the
// API Worker's overrides go in a copy of its config instead, written beside
// it (its paths are relative to where it is) and removed when npm start ends.
import { readFile, rm, writeFile } from "node:fs/promises";

export interface DevConfig {
  path: string;
  remove: () => Promise<void>;
}

/** `config` with each of `vars` set in place of its declared value. */
export async function configWithVars(
  config: string,
  vars: Record<string, string>,
): Promise<DevConfig> {
  if (Object.keys(vars).length === 0) {
    return { path: config, remove: async () => {} };
  }
  let text = await readFile(config, "utf8");
  for (const [name, value] of Object.entries(vars)) {
    // A TOML basic string is JSON's, for the values a var holds.
    const line = `${name} = ${JSON.stringify(value)}`;
    const declared = new RegExp(`^${name} = .*$`, "gm");
    text = declared.test(text)
      ? text.replace(declared, line)
      : // A secret given in the environment (EFTI_GATE_CREDENTIAL): a var of
        // this copy only, first in the top-level [vars].
        text.replace(/^\[vars\]$/m, `[vars]\n${line}`);
  }
  const path = config.replace(/\.toml$/, `.start-${process.pid}.toml`);
  // It may hold a secret given in the environment: the user's alone.
  await writeFile(path, text, { mode: 0o600 });
  return { path, remove: () => rm(path, { force: true }) };
}
