// Values made once for each object they belong to (a binding, a key's bytes,
// an operation table) and kept as long as it lives: in a Worker, whose
// bindings and configuration stay the same between requests, once per isolate.

/** `make(key)`, made on the first call for `key` and answered again after. */
export function oncePer<Key extends object, Value>(
  make: (key: Key) => Value,
): (key: Key) => Value {
  const made = new WeakMap<Key, Value>();
  return (key) => {
    if (made.has(key)) return made.get(key) as Value;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}

/**
 * WebCrypto's import of a key's bytes (`format`, for `algorithm` and
 * `usages`), made once per key: a keyring's keys live as long as the
 * isolate, and importing costs more than using the key.
 */
export const importedOnce = (
  format: "raw" | "pkcs8",
  algorithm: Parameters<SubtleCrypto["importKey"]>[2],
  usages: Parameters<SubtleCrypto["importKey"]>[4],
) =>
  oncePer((key: Uint8Array) =>
    crypto.subtle.importKey(format, key, algorithm, false, usages),
  );
