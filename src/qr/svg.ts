import { qrSymbol } from "./symbol";

/**
 * The QR code of `text` as SVG: a white square of the whole symbol (quiet
 * zone included, so that a dark page or theme behind it cannot reach the
 * symbol) and one black path of its dark runs, one unit per module. Without
 * a width or height it scales to whatever shows it; crispEdges keeps module
 * edges unblurred.
 */
export function qrSvg(text: string): string {
  const { runs, modules } = qrSymbol(text);
  const path = runs
    .map((run) => `M${run.x} ${run.y}h${run.length}v1h-${run.length}z`)
    .join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${modules} ${modules}" shape-rendering="crispEdges">`,
    `<rect width="${modules}" height="${modules}" fill="#fff"/>`,
    `<path d="${path}" fill="#000"/>`,
    "</svg>",
    "",
  ].join("\n");
}
