// Where the document font comes from and where its cut-down copy lives.

/**
 * Noto Sans (SIL Open Font License 1.1) as Google Fonts publishes it, from
 * the npm package `@expo-google-fonts/noto-sans` pinned in package.json (cut
 * from version 2.015), so that the cut is reproducible from the lockfile.
 * Only the font script and the glyph test read these files.
 */
export const ORIGINAL_FONTS = {
  regular:
    "node_modules/@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  bold: "node_modules/@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
} as const;

/** The committed cut-down fonts that the Worker embeds (see `npm run fonts`). */
export const CUT_FONTS = {
  regular: "fonts/NotoSans-Regular.ttf",
  bold: "fonts/NotoSans-Bold.ttf",
} as const;
