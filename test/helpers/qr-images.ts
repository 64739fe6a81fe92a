import { decode as decodePng } from "fast-png";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import zxingReader from "zxing-wasm/reader/zxing_reader.wasm";

// Reads QR images back as a phone would, with ZXing's own decoder. workerd
// compiles no WebAssembly from bytes at run time, so the module comes from
// node_modules already compiled by the import, never from the network.
prepareZXingModule({
  overrides: {
    instantiateWasm(
      imports: WebAssembly.Imports,
      done: (
        instance: WebAssembly.Instance,
        module: WebAssembly.Module,
      ) => void,
    ) {
      const module = zxingReader as unknown as WebAssembly.Module;
      void WebAssembly.instantiate(module, imports).then((instance) =>
        done(instance, module),
      );
      return {};
    },
  },
});

/** A QR symbol as its modules, row by row: true for dark. */
export type ModuleGrid = boolean[][];

/** The texts ZXing reads in an image file (PNG bytes) or in a module grid. */
export async function readQrTexts(
  image: Uint8Array | ModuleGrid,
): Promise<string[]> {
  const input = image instanceof Uint8Array ? image : gridPixels(image, 4);
  const results = await readBarcodes(input as Uint8Array, {
    formats: ["QRCode"],
  });
  return results.filter((result) => result.isValid).map((r) => r.text);
}

/** A grid drawn `scale` pixels a module, as RGBA like a canvas's ImageData. */
function gridPixels(grid: ModuleGrid, scale: number) {
  const side = grid.length * scale;
  const data = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const value = grid[Math.floor(y / scale)]?.[Math.floor(x / scale)]
        ? 0
        : 255;
      data.fill(value, (y * side + x) * 4, (y * side + x) * 4 + 3);
      data[(y * side + x) * 4 + 3] = 255;
    }
  }
  return { data, width: side, height: side };
}

/** How many light rows and columns surround the dark modules, on the thinnest side. */
export function quietZone(grid: ModuleGrid): number {
  const darkRows = grid.flatMap((row, y) => (row.includes(true) ? [y] : []));
  const darkColumns = grid[0]
    ?.map((_, x) => x)
    .filter((x) => grid.some((row) => row[x]));
  if (!darkColumns || darkRows.length === 0) return grid.length;
  const last = grid.length - 1;
  return Math.min(
    darkRows[0] as number,
    last - (darkRows.at(-1) as number),
    darkColumns[0] as number,
    last - (darkColumns.at(-1) as number),
  );
}

/**
 * The modules of an SVG whose one path is made of closed axis-aligned
 * rectangles (M, h, v, H, V, z), drawn black over a white square of the
 * whole viewBox; throws on any other SVG.
 */
export function svgModules(svg: string): ModuleGrid {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const square = /<rect width="(\d+)" height="(\d+)" fill="#fff"\/>/.exec(svg);
  const paths = [...svg.matchAll(/<path d="([^"]*)" fill="#000"\/>/g)];
  if (!viewBox || viewBox[1] !== viewBox[2] || paths.length !== 1) {
    throw new Error(`not one square viewBox and one black path: ${svg}`);
  }
  const side = Number(viewBox[1]);
  if (square?.[1] !== viewBox[1] || square?.[2] !== viewBox[2]) {
    throw new Error("the viewBox is not painted white");
  }
  const grid: ModuleGrid = Array.from({ length: side }, () =>
    Array<boolean>(side).fill(false),
  );
  const commands = (paths[0]?.[1] ?? "").matchAll(
    /([MmHhVvZz])\s*(-?\d+)?\s*(-?\d+)?/g,
  );
  let x = 0;
  let y = 0;
  let corners: [number, number][] = [];
  for (const [, command, a, b] of commands) {
    const first = Number(a);
    if (command === "M") [x, y] = [first, Number(b)];
    else if (command === "h") x += first;
    else if (command === "H") x = first;
    else if (command === "v") y += first;
    else if (command === "V") y = first;
    else if (command === "z" || command === "Z") {
      fillRectangle(grid, corners);
      corners = [];
      continue;
    } else throw new Error(`path command ${command} not expected`);
    corners.push([x, y]);
  }
  if (corners.length > 0) throw new Error("a subpath is left open");
  return grid;
}

function fillRectangle(grid: ModuleGrid, corners: [number, number][]) {
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  if (
    corners.length !== 4 ||
    new Set(xs).size !== 2 ||
    new Set(ys).size !== 2
  ) {
    throw new Error(`subpath is not a rectangle: ${JSON.stringify(corners)}`);
  }
  for (let y = Math.min(...ys); y < Math.max(...ys); y++) {
    for (let x = Math.min(...xs); x < Math.max(...xs); x++) {
      const row = grid[y];
      if (row === undefined || x < 0 || x >= row.length) {
        throw new Error(`module (${x}, ${y}) outside the viewBox`);
      }
      row[x] = true;
    }
  }
}

/**
 * The modules of a black-and-white QR PNG (CRC checked), with its side and
 * the pixels of a module: the finder pattern's first row is 7 dark modules,
 * which gives the module size; throws unless every pixel has the colour of
 * its module (crisp, whole-pixel modules).
 */
export function pngModules(png: Uint8Array): {
  side: number;
  pixelsPerModule: number;
  grid: ModuleGrid;
} {
  const image = decodePng(png, { checkCrc: true });
  if (image.width !== image.height || image.channels !== 1) {
    throw new Error(
      `${image.width}x${image.height}, ${image.channels} channels`,
    );
  }
  const side = image.width;
  const white = 2 ** image.depth - 1;
  const rowBytes = Math.ceil((side * image.depth) / 8);
  const level = (x: number, y: number): number => {
    if (image.depth === 8) return image.data[y * side + x] as number;
    if (image.depth !== 1) throw new Error(`depth ${image.depth}`);
    const byte = image.data[y * rowBytes + (x >> 3)] as number;
    return (byte >> (7 - (x & 7))) & 1;
  };
  const dark = (x: number, y: number) => {
    const value = level(x, y);
    if (value !== 0 && value !== white) throw new Error(`grey at ${x},${y}`);
    return value === 0;
  };
  let top = 0;
  while (
    top < side &&
    !Array.from({ length: side }, (_, x) => x).some((x) => dark(x, top))
  )
    top++;
  let left = 0;
  while (left < side && !dark(left, top)) left++;
  let right = left;
  while (right < side && dark(right, top)) right++;
  const pixelsPerModule = (right - left) / 7;
  if (!Number.isInteger(pixelsPerModule) || side % pixelsPerModule !== 0) {
    throw new Error(`modules of ${pixelsPerModule} pixels in ${side}`);
  }
  const modules = side / pixelsPerModule;
  const grid: ModuleGrid = Array.from({ length: modules }, (_, row) =>
    Array.from({ length: modules }, (_, column) =>
      dark(column * pixelsPerModule, row * pixelsPerModule),
    ),
  );
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const module =
        grid[Math.floor(y / pixelsPerModule)]?.[
          Math.floor(x / pixelsPerModule)
        ];
      if (dark(x, y) !== module)
        throw new Error(`pixel ${x},${y} blurs its module`);
    }
  }
  return { side, pixelsPerModule, grid };
}
