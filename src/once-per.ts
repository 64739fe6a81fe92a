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
