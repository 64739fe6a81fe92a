import { fallbackFamiliesFor } from "../../font-coverage/coverage";
import type { DocumentData } from "../../schemas/document-request";
import type { FontStore } from "../../storage/font-store";
import type { FontFiles } from "./render-port";

/** Every text of the data, at any depth. */
function* textsOf(value: unknown): Generator<string> {
  if (typeof value === "string") yield value;
  else if (Array.isArray(value)) for (const item of value) yield* textsOf(item);
  else if (value && typeof value === "object") {
    for (const item of Object.values(value)) yield* textsOf(item);
  }
}

/**
 * The fallback fonts that printing `data` needs, loaded together: none for
 * a document in Latin, Greek or Cyrillic letters, which Noto Sans prints.
 */
export async function fallbackFontsFor(
  fonts: FontStore,
  data: DocumentData,
): Promise<FontFiles> {
  const families = [...fallbackFamiliesFor(textsOf(data))];
  const files = await Promise.all(families.map((family) => fonts.load(family)));
  return new Map(
    families.map((family, index) => [family, files[index] as Uint8Array]),
  );
}
