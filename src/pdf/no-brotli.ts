// fontkit imports brotli only to read WOFF2 fonts, and brotli decompresses its
// 120 KB dictionary when its module loads: some 40 ms of every cold start.
// The document fonts are TrueType, so the Worker bundle (wrangler.toml
// `[alias]`) and `npm run bench` replace brotli with this.

export default function decompress(): never {
  throw new Error(
    "WOFF2 fonts are not supported: the document fonts are TrueType.",
  );
}
