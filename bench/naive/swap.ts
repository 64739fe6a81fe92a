// The naive baseline is src/pdf's renderer loaded a second time, its module
// URLs marked `?naive`, with the font, text and QR modules replaced by the
// plain ones in this folder. Node (module hooks, see register.ts) and Vite
// (the Vitest project `pdf`) apply the same rule. Imports nothing of the
// project, since Node loads hooks on their own.
import type { ResolveHook } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

export const NAIVE_MARK = "?naive";
const PLAIN_MODULES = new Set(["fonts.ts", "lines.ts", "qr-code.ts"]);
const RENDERER_DIRECTORY = "/src/pdf/";

/** Where a module of the naive renderer comes from: a plain module, or src/pdf's own marked. */
function naiveTarget(path: string): string | null {
  if (!path.includes(RENDERER_DIRECTORY)) return null;
  const file = path.slice(path.lastIndexOf("/") + 1);
  return PLAIN_MODULES.has(file)
    ? fileURLToPath(new URL(`./${file}`, import.meta.url))
    : `${path}${NAIVE_MARK}`;
}

export const resolve: ResolveHook = async (specifier, context, next) => {
  const resolved = await next(specifier, context);
  const naive =
    specifier.endsWith(NAIVE_MARK) || context.parentURL?.endsWith(NAIVE_MARK);
  if (!naive || !resolved.url.startsWith("file:")) return resolved;
  const target = naiveTarget(
    fileURLToPath(resolved.url.replace(NAIVE_MARK, "")),
  );
  if (!target) return resolved;
  const [path = "", mark] = target.split("?");
  const url = pathToFileURL(path).href + (mark ? `?${mark}` : "");
  return { ...resolved, url };
};

/** The same rule for Vite. */
export const naiveRendererModules = () => ({
  name: "naive-renderer-modules",
  enforce: "pre" as const,
  async resolveId(
    this: {
      resolve: (
        source: string,
        importer?: string,
        options?: { skipSelf: boolean },
      ) => Promise<{ id: string } | null>;
    },
    source: string,
    importer?: string,
  ) {
    const naive = source.endsWith(NAIVE_MARK) || importer?.endsWith(NAIVE_MARK);
    if (!naive) return null;
    const resolved = await this.resolve(
      source.replace(NAIVE_MARK, ""),
      importer?.replace(NAIVE_MARK, ""),
      { skipSelf: true },
    );
    return resolved ? naiveTarget(resolved.id) : null;
  },
});
