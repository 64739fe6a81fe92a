import { serviceUnavailable } from "../errors";
import { fallbackFontKey } from "../font-coverage/coverage";
import type { FallbackFamily } from "../font-coverage/fallback-families";

/** Where the fallback fonts come from. */
export interface FontStore {
  /** Throws 503 SERVICE_UNAVAILABLE when the file cannot be had. */
  load(family: FallbackFamily): Promise<Uint8Array>;
}

// Per bucket binding, each file fetched once per isolate: concurrent first
// loads share one fetch; a failed fetch is forgotten, so the next try fetches again.
const loaded = new WeakMap<R2Bucket, Map<string, Promise<Uint8Array>>>();

/**
 * The fallback fonts in the FONTS bucket (uploaded by scripts/upload-fonts.ts
 * under keys that carry their content hash), too large for the Worker bundle.
 */
export function createFontStore(bucket: R2Bucket): FontStore {
  let files = loaded.get(bucket);
  if (!files) {
    files = new Map();
    loaded.set(bucket, files);
  }
  const cache = files;
  return {
    load(family: FallbackFamily) {
      const key = fallbackFontKey(family);
      let file = cache.get(key);
      if (!file) {
        file = fetchFont(bucket, key);
        cache.set(key, file);
        file.catch(() => cache.delete(key));
      }
      return file;
    },
  };
}

async function fetchFont(bucket: R2Bucket, key: string): Promise<Uint8Array> {
  let object: R2ObjectBody | null;
  try {
    object = await bucket.get(key);
  } catch (error) {
    throw serviceUnavailable("font_store", error);
  }
  if (!object) {
    // A deployment fault (fonts not uploaded): the key goes to the log only.
    throw serviceUnavailable(
      "font_store",
      new Error(`The font ${key} is missing from the font store.`),
    );
  }
  return new Uint8Array(await object.arrayBuffer());
}
