import type { PDFPage } from "@cantoo/pdf-lib";
import { COLORS } from "./styles";

// The service's mark, drawn in a 32-unit square (SVG coordinates, y down): a
// lorry whose load carries a tick, on a rounded tile.
const TILE = { size: 32, radius: 6 };
const LOAD = "M4.5 8h15.5v13H4.5z";
const CAB = "M22 12h4.2l3.3 4.3V21H22z";
const CAB_WINDOW = "M23.4 13.4h2.4l2.1 2.8h-4.5z";
const TICK = "M8 14.6l2.9 2.9 5.4-5.8";
const WHEELS = [
  { cx: 10, cy: 22.5 },
  { cx: 24.5, cy: 22.5 },
];

/** Draws the logo as a `size`-point square whose top-left corner is (x, top). */
export function drawLogo(
  page: PDFPage,
  x: number,
  top: number,
  size: number,
): void {
  const scale = size / TILE.size;
  page.drawRectangle({
    x,
    y: top - size,
    width: size,
    height: size,
    rx: TILE.radius * scale,
    ry: TILE.radius * scale,
    color: COLORS.accent,
  });
  const at = { x, y: top, scale };
  page.drawSvgPath(LOAD, { ...at, color: COLORS.white });
  page.drawSvgPath(CAB, { ...at, color: COLORS.white });
  page.drawSvgPath(CAB_WINDOW, { ...at, color: COLORS.accent });
  page.drawSvgPath(TICK, {
    ...at,
    borderColor: COLORS.accent,
    borderWidth: 1.5,
  });
  for (const wheel of WHEELS) {
    page.drawCircle({
      x: x + wheel.cx * scale,
      y: top - wheel.cy * scale,
      size: 3.2 * scale,
      color: COLORS.white,
      borderColor: COLORS.accent,
      borderWidth: 1.4 * scale,
    });
  }
}
