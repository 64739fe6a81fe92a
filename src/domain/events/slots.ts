/** Runs the work handed to it, at most so many at once, the rest in the order they came. */
export type Slots = <T>(work: () => Promise<T>) => Promise<T>;

/** Slots for `size` works at once. */
export function slots(size: number): Slots {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < size) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot goes to the next waiting work, or is freed.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
