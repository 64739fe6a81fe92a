// Where the document font comes from and where its cut-down copy lives.

/**
 * Noto Sans (SIL Open Font License 1.1) as Debian's `fonts-noto-core`
 * package installs it (`apt-get install fonts-noto-core`; cut from version
 * 20201225-1). Only the font script and the glyph test read these files.
 */
export const ORIGINAL_FONTS = {
  regular: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
  bold: "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
} as const;

/** The committed cut-down fonts that the Worker embeds (see `npm run fonts`). */
export const CUT_FONTS = {
  regular: "fonts/NotoSans-Regular.ttf",
  bold: "fonts/NotoSans-Bold.ttf",
} as const;
