// Reads the rendered PDFs as a person's software would, with npm packages
// alone (WebAssembly, no system tools): MuPDF.js extracts the text, renders
// the pages and checks the file's structure; ZXing reads the QR code.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as mupdf from "mupdf";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { framingFault } from "./object-framing";

// ZXing would fetch its WebAssembly from a CDN: hand it the installed file.
const zxingWasm = readFileSync(
  createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm"),
);
prepareZXingModule({
  overrides: {
    wasmBinary: zxingWasm.buffer.slice(
      zxingWasm.byteOffset,
      zxingWasm.byteOffset + zxingWasm.byteLength,
    ),
  },
});

/**
 * Runs `read` on the opened document with every warning and error MuPDF
 * reports collected, and throws if there was any: a damaged file reads
 * "successfully" once MuPDF has repaired it, so its complaints must count.
 */
function readStrictly<T>(
  bytes: Uint8Array,
  read: (document: mupdf.PDFDocument) => T,
): T {
  const complaints: string[] = [];
  mupdf.setLog((message) => complaints.push(message));
  try {
    const document = new mupdf.PDFDocument(bytes);
    try {
      const result = read(document);
      if (document.wasRepaired()) {
        complaints.push("the cross-reference table had to be rebuilt");
      }
      if (complaints.length > 0) throw new Error(complaints.join("\n"));
      return result;
    } finally {
      document.destroy();
    }
  } finally {
    mupdf.setLog(null);
  }
}

/** The text of each page, line by line. */
export const pageTexts = async (bytes: Uint8Array): Promise<string[]> =>
  readStrictly(bytes, (document) =>
    Array.from({ length: document.countPages() }, (_, index) => {
      const text = document.loadPage(index).toStructuredText("");
      try {
        return text.asText();
      } finally {
        text.destroy();
      }
    }),
  );

/** Runs of whitespace as one space, so that wrapped text compares with its source. */
export const squeezeSpaces = (text: string): string =>
  text.replace(/\s+/g, " ").trim();

/** What ZXing reads from a page (page 1 unless told) rendered at 150 dpi, one line a symbol. */
export const decodeQrCode = async (
  bytes: Uint8Array,
  pageNumber = 1,
): Promise<string> => {
  const page = await renderPage(bytes, 150, pageNumber);
  const rgba = new Uint8ClampedArray(page.pixels.length * 4).fill(255);
  page.pixels.forEach((level, index) => {
    rgba.fill(level, index * 4, index * 4 + 3);
  });
  const symbols = await readBarcodes(
    { data: rgba, width: page.width, height: page.height, colorSpace: "srgb" },
    { formats: ["QRCode"], tryHarder: true },
  );
  if (symbols.length === 0) {
    throw new Error(`no QR code found on page ${pageNumber}`);
  }
  return symbols.map((symbol) => symbol.text).join("\n");
};

/**
 * The file's structure, as strictly as `qpdf --check` reads it: the
 * cross-reference table and trailer are intact (nothing needed repairing),
 * the trailer's size matches the objects, the catalog and page tree are
 * typed, every object parses and is well framed, every stream decodes and
 * every page's content runs, all without a warning. Rejects otherwise.
 */
export const checkPdfStructure = async (bytes: Uint8Array): Promise<void> =>
  readStrictly(bytes, (document) => {
    const fault = framingFault(bytes, document);
    if (fault) throw new Error(fault);
    const trailer = document.getTrailer();
    const objects = document.countObjects();
    if (trailer.get("Size").asNumber() !== objects) {
      throw new Error(`trailer /Size is not the ${objects} objects`);
    }
    const catalog = trailer.get("Root");
    if (catalog.get("Type").asName() !== "Catalog") {
      throw new Error("trailer /Root is not a /Catalog");
    }
    if (catalog.get("Pages").get("Type").asName() !== "Pages") {
      throw new Error("the catalog's /Pages is not a page tree");
    }
    for (let number = 1; number < objects; number++) {
      const object = document.newIndirect(number).resolve();
      if (object.isStream()) object.readStream();
    }
    const pages = document.countPages();
    if (pages < 1) throw new Error("no page");
    for (let index = 0; index < pages; index++) {
      document.loadPage(index).toStructuredText("").destroy();
    }
  });

export interface GrayImage {
  width: number;
  height: number;
  /** One byte a pixel, 0 black to 255 white, row by row. */
  pixels: Uint8Array;
}

/** A page rendered in grey levels, anti-aliased, on white. */
export const renderPage = async (
  bytes: Uint8Array,
  dpi: number,
  pageNumber = 1,
): Promise<GrayImage> =>
  readStrictly(bytes, (document) => {
    const scale = dpi / 72;
    const pixmap = document
      .loadPage(pageNumber - 1)
      .toPixmap(
        mupdf.Matrix.scale(scale, scale),
        mupdf.ColorSpace.DeviceGray,
        false,
      );
    try {
      const width = pixmap.getWidth();
      const height = pixmap.getHeight();
      const stride = pixmap.getStride();
      const samples = pixmap.getPixels();
      const pixels = new Uint8Array(width * height);
      for (let row = 0; row < height; row++) {
        pixels.set(
          samples.subarray(row * stride, row * stride + width),
          row * width,
        );
      }
      return { width, height, pixels };
    } finally {
      pixmap.destroy();
    }
  });
