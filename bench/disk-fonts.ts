// The fallback fonts as the benchmarks load them: the committed cuts in
// fonts/fallback, read from disk where the Worker reads R2 (src/storage/
// font-store.ts). Each file is read once per process and kept, as the
// Worker keeps it per isolate, so that it is parsed once (src/pdf/fonts.ts).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { cutFallbackFont } from "../scripts/lib/fallback-font-files";
import type { FallbackFamily } from "../src/font-coverage/fallback-families";
import type { FontStore } from "../src/storage/font-store";

/** The fallback fonts under the repository at `root`. */
export function diskFontSource(root: string): FontStore {
  const files = new Map<FallbackFamily, Promise<Uint8Array>>();
  return {
    load(family) {
      let file = files.get(family);
      if (!file) {
        file = readFile(join(root, cutFallbackFont(family))).then(
          (bytes) => new Uint8Array(bytes),
        );
        files.set(family, file);
      }
      return file;
    },
  };
}
