import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as fontkit from "@cantoo/fontkit";
import { PDFDocument } from "@cantoo/pdf-lib";
import { describe, expect, it, vi } from "vitest";
import regularFile from "../../fonts/NotoSans-Regular.ttf";
import { embedDocumentFonts } from "../../src/pdf/fonts";

// src/pdf/fonts.ts makes each glyph decode its outline once by wrapping
// fontkit's private `_decode`, which @cantoo/fontkit's subsetter calls for
// every glyph it copies. package.json pins fontkit's exact version; this
// fails when an upgrade renames `_decode` or reaches glyphs another way.

/** The prototype that defines `_decode` for the document font's glyphs. */
function decodingPrototype(): { _decode: () => unknown } {
  const font = fontkit.create(new Uint8Array(regularFile));
  if (!("getGlyph" in font)) throw new Error("Not a single font file.");
  let owner: object | null = font.getGlyph(36);
  while (owner && !Object.hasOwn(owner, "_decode")) {
    owner = Object.getPrototypeOf(owner);
  }
  if (!owner) throw new Error("fontkit's glyphs have no _decode");
  return owner as { _decode: () => unknown };
}

async function documentWith(text: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const { regular } = await embedDocumentFonts(pdf);
  pdf.addPage().drawText(text, { font: regular, size: 12 });
  await pdf.save();
}

describe("fontkit's glyph decoding, as fonts.ts patches it", () => {
  it("decodes each glyph's outline for the first document only", async () => {
    const prototype = decodingPrototype();
    expect(typeof prototype._decode).toBe("function");
    const decode = vi.spyOn(prototype, "_decode");

    await documentWith("Łódź Ștefan Αθήνα Москва");
    const firstDocument = decode.mock.calls.length;
    expect(firstDocument).toBeGreaterThan(10);

    await documentWith("Łódź Ștefan Αθήνα Москва");
    expect(decode.mock.calls.length).toBe(firstDocument);
  });
});

describe("fontkit's Unicode tries, as npm install leaves them (scripts/lazy-fontkit-tries.ts)", () => {
  it("are built on first read, in the Worker's module and in Node's", async () => {
    const dist = dirname(
      createRequire(import.meta.url).resolve("@cantoo/fontkit"),
    );
    for (const module of ["browser-module.mjs", "module.mjs"]) {
      const text = await readFile(join(dist, module), "utf8");
      expect(text.match(/^var trie\d* = new /gm), module).toBeNull();
      expect(text.match(/^var trie\d* = lazyTrie\(/gm), module).toHaveLength(4);
    }
  });
});
