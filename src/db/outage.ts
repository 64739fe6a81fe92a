import { serviceUnavailable } from "../errors";

// D1 as the app sees it: a rejection that means the database could not be
// reached or was overloaded ("Network connection lost", "D1 DB is
// overloaded", a storage reset) becomes a 503 with Retry-After, so that every
// operation answers an outage the same way.

/**
 * Whether D1 answered and refused the SQL itself: a constraint (a unique
 * index keeps its meaning of a conflict or a lost race) or SQL it cannot run,
 * a fault of ours that a retry would not mend.
 */
const isRefusal = (error: unknown): boolean =>
  error instanceof Error &&
  /SQLITE_CONSTRAINT|constraint failed|SQLITE_ERROR|D1_TYPE_ERROR/.test(
    error.message,
  );

const outage = (error: unknown): never => {
  throw isRefusal(error) ? error : serviceUnavailable("database", error);
};

/**
 * The binding with every call that reaches D1 (a statement's run, all,
 * first and raw, a batch, an exec) failing as a 503 on an outage; the
 * statements it hands out are wrapped alike.
 */
export function reportingOutages<T extends object>(binding: T): T {
  return new Proxy(binding, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        if (result instanceof Promise) return result.catch(outage);
        return typeof result === "object" && result !== null
          ? reportingOutages(result)
          : result;
      };
    },
  });
}
