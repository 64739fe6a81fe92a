// `tsx scripts/upload-fonts.ts [--remote] [--persist-to DIR]`: puts the cut
// fallback fonts into the FONTS bucket under the keys of fonts/coverage.json
// (their content hash in them), the local one of `npm start` by default.
// `npm start` runs it before `wrangler dev`; `npm run deploy` with --remote
// before `wrangler deploy`, so that a deployed Worker finds every key it names.
import { execFile } from "node:child_process";
import { parseArgs, promisify } from "node:util";
import { fallbackFontKey } from "../src/font-coverage/coverage";
import { FALLBACK_FAMILIES } from "../src/font-coverage/fallback-families";
import { cutFallbackFont } from "./lib/fallback-font-files";

const run = promisify(execFile);
const BUCKET = "deca-fonts";

export async function uploadFonts(target: {
  remote: boolean;
  persistTo?: string | undefined;
}): Promise<void> {
  const where = target.remote
    ? ["--remote"]
    : [
        "--local",
        ...(target.persistTo ? ["--persist-to", target.persistTo] : []),
      ];
  for (const family of FALLBACK_FAMILIES) {
    const key = fallbackFontKey(family);
    await run(
      "wrangler",
      [
        "r2",
        "object",
        "put",
        `${BUCKET}/${key}`,
        "--file",
        cutFallbackFont(family),
        ...where,
      ],
      { env: { ...process.env, CI: "true" } },
    );
    console.error(`Uploaded ${cutFallbackFont(family)} as ${key}.`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
    },
  });
  await uploadFonts({ remote: values.remote, persistTo: values["persist-to"] });
}
