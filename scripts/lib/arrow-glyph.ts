// Noto Sans has no arrows, and a correction prints `old → new` in every
// document (docs/api.md, The PDF): the cut fonts gain a rightwards arrow,
// drawn on the math axis and with the stroke of the font's own `+`, so
// that no correction needs a fallback font for it.
import { Font, type TTF } from "fonteditor-core";

const ARROW = 0x2192;
/** In font units (1000 an em): the arrow's advance, shaft start, head start and tip, half the head's height. */
const SHAPE = { advance: 840, left: 60, neck: 440, tip: 780, wing: 240 };

/** The horizontal bar of `+`: its axis and half its stroke. */
function barOf(plus: TTF.Glyph): { axis: number; half: number } {
  const inner = (plus.contours[0] ?? [])
    .map((point) => point.y)
    .filter((y) => y > plus.yMin && y < plus.yMax);
  const bottom = Math.min(...inner);
  const top = Math.max(...inner);
  return { axis: (bottom + top) / 2, half: (top - bottom) / 2 };
}

/** `cut`, a TrueType font, with a glyph for → added; every other glyph unchanged. */
export function withArrow(cut: Uint8Array): Buffer {
  const font = Font.create(Buffer.from(cut), { type: "ttf", hinting: true });
  const ttf = font.get();
  const plus = ttf.glyf.find((glyph) => glyph.unicode?.includes(0x2b));
  if (!plus) throw new Error("The font has no `+`.");
  const { axis, half } = barOf(plus);
  const { advance, left, neck, tip, wing } = SHAPE;
  // One contour, clockwise as TrueType fills it: shaft, then head.
  const contour = [
    [left, axis - half],
    [left, axis + half],
    [neck, axis + half],
    [neck, axis + wing],
    [tip, axis],
    [neck, axis - wing],
    [neck, axis - half],
  ].map(([x = 0, y = 0]) => ({
    x: Math.round(x),
    y: Math.round(y),
    onCurve: true,
  }));
  ttf.glyf.push({
    contours: [contour],
    xMin: left,
    xMax: tip,
    yMin: Math.round(axis - wing),
    yMax: Math.round(axis + wing),
    advanceWidth: advance,
    leftSideBearing: left,
    name: "arrowright",
    unicode: [ARROW],
  });
  font.set(ttf);
  return font.write({ type: "ttf", hinting: true, toBuffer: true });
}
