import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The fallback font files on disk, by family (test/setup/seed-fonts.ts). */
      FONT_FILES: Fetcher;
      /** README.md: GET reads it, PUT rewrites it under UPDATE_ROUNDTRIPS=1 (vitest.config.ts). */
      README: Fetcher;
    }
  }
}
