// In the Worker, wrangler's `Data` rule (wrangler.toml) makes `import x from
// "….ttf"` an ArrayBuffer. Node has no such rule: these module hooks (see
// font-imports.ts) and the Vitest project `pdf` give Node the same import.
// Node loads hooks without tsx, so this file imports nothing of the project.
import { readFile } from "node:fs/promises";
import type { LoadHook } from "node:module";
import { fileURLToPath } from "node:url";

const isFontFile = (path: string): boolean => path.endsWith(".ttf");

/** The source of a module whose default export is `bytes` as an ArrayBuffer. */
const arrayBufferModule = (bytes: Uint8Array): string =>
  `export default Uint8Array.from(atob(${JSON.stringify(
    Buffer.from(bytes).toString("base64"),
  )}), (c) => c.charCodeAt(0)).buffer;`;

/** The same, for Vite (the Vitest project `pdf`). */
export const fontFilesAsArrayBuffers = () => ({
  name: "font-files-as-array-buffers",
  // Before Vite's own asset handling, which would make the import a URL.
  enforce: "pre" as const,
  async load(id: string): Promise<string | undefined> {
    return isFontFile(id) ? arrayBufferModule(await readFile(id)) : undefined;
  },
});

export const load: LoadHook = async (url, context, nextLoad) => {
  if (!isFontFile(url)) return nextLoad(url, context);
  return {
    format: "module",
    shortCircuit: true,
    source: arrayBufferModule(await readFile(fileURLToPath(url))),
  };
};
