import type { D1Migration } from "cloudflare:test";
import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";

declare global {
  // Vite's import.meta.glob (test/db/query-plans.test.ts reads src/db with
  // it), without vite/client's module types, which would retype the fonts.
  interface ImportMeta {
    glob: ImportGlobFunction;
  }
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The edge Worker's assets (wrangler.edge.toml), for the pages. */
      ASSETS: Fetcher;
      /** The fallback font files on disk, by family (test/setup/seed-fonts.ts). */
      FONT_FILES: Fetcher;
      /** The text of docs/performance.md, whose round-trip table a test compares. */
      PERFORMANCE_DOC_TEXT: string;
    }
  }
}
