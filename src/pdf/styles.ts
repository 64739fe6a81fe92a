import { type Color, type PDFFont, rgb } from "@cantoo/pdf-lib";
import { fontRuns, type StyleFonts } from "./font-runs";
import type { DocumentFonts } from "./fonts";

/** A4 in points, with the margins every page keeps. */
export const PAGE = {
  width: 595.28,
  height: 841.89,
  margin: 40,
} as const;

export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;

export const COLORS = {
  ink: rgb(0.1, 0.11, 0.13),
  muted: rgb(0.36, 0.39, 0.44),
  accent: rgb(0.05, 0.29, 0.47),
  rule: rgb(0.78, 0.81, 0.85),
  highlight: rgb(0.93, 0.95, 0.98),
  warning: rgb(0.72, 0.07, 0.07),
  watermark: rgb(0.97, 0.86, 0.86),
  white: rgb(1, 1, 1),
} as const;

/**
 * A font at a size, with the distance from one baseline to the next; the
 * document's fallback fonts print what the font lacks.
 */
export interface TextStyle extends StyleFonts {
  size: number;
  color: Color;
  leading: number;
}

/** Every text style of the document; nothing prints below 9 pt (a phone screen). */
export function textStyles(fonts: DocumentFonts) {
  const style = (font: PDFFont, size: number, color: Color): TextStyle => ({
    font,
    fallbacks: fonts.fallbacks,
    size,
    color,
    leading: Math.round(size * 1.25 * 10) / 10,
  });
  return {
    title: style(fonts.bold, 16, COLORS.ink),
    notValid: style(fonts.bold, 11, COLORS.warning),
    pageNumber: style(fonts.bold, 10, COLORS.ink),
    heading: style(fonts.bold, 10.5, COLORS.accent),
    /** The key facts of page 1: 18 pt reads on a phone's screen at full width. */
    keyFact: style(fonts.bold, 18, COLORS.ink),
    label: style(fonts.bold, 9, COLORS.muted),
    value: style(fonts.regular, 10, COLORS.ink),
    emphasis: style(fonts.bold, 10, COLORS.ink),
    small: style(fonts.regular, 9, COLORS.muted),
  } as const;
}

export type TextStyles = ReturnType<typeof textStyles>;

/** The width of printable text in a style, in points, each run in its own font. */
export const widthIn = (text: string, style: TextStyle): number =>
  fontRuns(text, style).reduce(
    (width, run) => width + run.font.widthOfTextAtSize(run.text, style.size),
    0,
  );
