/** `items` under each of the keys `keysOf` gives each, in the order they came. */
export function groupedUnderEach<K, V>(
  items: readonly V[],
  keysOf: (item: V) => readonly K[],
): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const item of items) {
    for (const key of keysOf(item)) {
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
  }
  return groups;
}

/** `items` by `keyOf` of each, in the order they came. */
export const grouped = <K, V>(
  items: readonly V[],
  keyOf: (item: V) => K,
): Map<K, V[]> => groupedUnderEach(items, (item) => [keyOf(item)]);

/** `items` in runs of at most `size`, in order. */
export function chunks<V>(items: readonly V[], size: number): V[][] {
  const runs: V[][] = [];
  for (let start = 0; start < items.length; start += size) {
    runs.push(items.slice(start, start + size));
  }
  return runs;
}
