import { env } from "cloudflare:test";
import { fallbackFontKey } from "../../src/font-coverage/coverage";
import { FALLBACK_FAMILIES } from "../../src/font-coverage/fallback-families";

// The FONTS bucket as `npm start` and the deploy script fill it
// (scripts/upload-fonts.ts), before every test file: any document may need a
// fallback font. FONT_FILES reads fonts/fallback/ (vitest.config.ts).
await Promise.all(
  FALLBACK_FAMILIES.map(async (family) => {
    const file = await env.FONT_FILES.fetch(`http://fonts/${family}`);
    if (!file.ok)
      throw new Error(`fonts/fallback/${family}.ttf: ${file.status}`);
    await env.FONTS.put(fallbackFontKey(family), await file.arrayBuffer());
  }),
);
