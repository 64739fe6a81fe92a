// The command-line tools that read the rendered PDFs as a person's software
// would: poppler (pdftotext, pdftoppm), zbar (zbarimg) and qpdf.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

async function withPdfFile<T>(
  bytes: Uint8Array,
  use: (path: string, directory: string) => Promise<T>,
): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), "pdf-test-"));
  try {
    const path = join(directory, "document.pdf");
    await writeFile(path, bytes);
    return await use(path, directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The text of each page, as pdftotext extracts it. */
export const pageTexts = (bytes: Uint8Array): Promise<string[]> =>
  withPdfFile(bytes, async (path) => {
    const { stdout } = await run("pdftotext", ["-enc", "UTF-8", path, "-"]);
    // pdftotext ends every page with a form feed.
    return stdout.split("\f").slice(0, -1);
  });

/** Runs of whitespace as one space, so that wrapped text compares with its source. */
export const squeezeSpaces = (text: string): string =>
  text.replace(/\s+/g, " ").trim();

/** What zbarimg reads from page 1 rendered at 150 dpi. */
export const decodeQrCode = (bytes: Uint8Array): Promise<string> =>
  withPdfFile(bytes, async (path, directory) => {
    const image = join(directory, "page");
    await run("pdftoppm", [
      "-r",
      "150",
      "-f",
      "1",
      "-l",
      "1",
      "-png",
      "-singlefile",
      path,
      image,
    ]);
    const { stdout } = await run("zbarimg", ["--raw", "-q", `${image}.png`]);
    return stdout.replace(/\n$/, "");
  });

/** qpdf's structural check; rejects on any error or warning. */
export const qpdfCheck = (bytes: Uint8Array): Promise<string> =>
  withPdfFile(
    bytes,
    async (path) => (await run("qpdf", ["--check", path])).stdout,
  );

export interface GrayImage {
  width: number;
  height: number;
  /** One byte a pixel, 0 black to 255 white, row by row. */
  pixels: Uint8Array;
}

/** A page rendered in grey levels by pdftoppm. */
export const renderPage = (
  bytes: Uint8Array,
  dpi: number,
  pageNumber = 1,
): Promise<GrayImage> =>
  withPdfFile(bytes, async (path, directory) => {
    const image = join(directory, "page");
    await run("pdftoppm", [
      "-r",
      String(dpi),
      "-f",
      String(pageNumber),
      "-l",
      String(pageNumber),
      "-gray",
      "-singlefile",
      path,
      image,
    ]);
    const pgm = await readFile(`${image}.pgm`);
    // Binary PGM: "P5\n<width> <height>\n255\n" then the pixels.
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(
      pgm.toString("latin1", 0, 40),
    );
    if (!header) throw new Error("pdftoppm did not write a binary PGM");
    const [, width, height] = header.map(Number) as [number, number, number];
    return {
      width,
      height,
      pixels: new Uint8Array(pgm.subarray(header[0].length)),
    };
  });
