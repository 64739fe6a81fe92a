// fontkit builds four Unicode tries when it is imported (its Unicode
// properties and its Arabic, Indic and universal shapers' tables, inflated
// from base64), about a fifth of the Worker's module evaluation
// (`npm run bench`), for tables that only its shaping engine reads: the
// document font is laid out through its cmap alone (src/pdf/fonts.ts), so
// only a document needing the Arabic or emoji font reads them. Run by
// `npm install` (postinstall), this rewrites @cantoo/fontkit's ES modules
// (its exact version pinned in package.json) so that each trie is built on
// its first read. It stops with an error when a module does not build the
// tries it expects; run again, it changes nothing.
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// The Worker's (wrangler resolves `browser`) and Node's.
const MODULES = ["browser-module.mjs", "module.mjs"];
const TRIES = 4;
const TRIE = /^var (trie\d*) = new unicode_trie_default\((.+)\);$/gm;
const TRIE_CLASS = "var unicode_trie_default = UnicodeTrie;\n";
const LAZY_TRIE = `// scripts/lazy-fontkit-tries.ts: each trie is built on its first read.
var lazyTrie = (build) => {
  let built;
  return { get: (codePoint) => (built ??= build()).get(codePoint) };
};
`;

console.error(
  "postinstall: making @cantoo/fontkit build its Unicode tries on first use, a fifth of the Worker's start-up otherwise",
);
const dist = dirname(createRequire(import.meta.url).resolve("@cantoo/fontkit"));
for (const module of MODULES) {
  const file = join(dist, module);
  const text = await readFile(file, "utf8");
  if (text.includes(LAZY_TRIE)) continue;
  const tries = text.match(TRIE)?.length ?? 0;
  if (tries !== TRIES || !text.includes(TRIE_CLASS)) {
    throw new Error(
      `${file} builds ${tries} Unicode tries, not ${TRIES}: see scripts/lazy-fontkit-tries.ts`,
    );
  }
  await writeFile(
    file,
    text
      .replace(TRIE_CLASS, `${TRIE_CLASS}${LAZY_TRIE}`)
      .replace(TRIE, "var $1 = lazyTrie(() => new unicode_trie_default($2));"),
  );
}
