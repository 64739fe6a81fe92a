// What `EXPLAIN QUERY PLAN` says about the SQL the service sends: which of
// the tables that grow with the documents a statement reads whole.

/** Tables that grow with every document issued or its events: a scan of one is unbounded. */
const GROWING_TABLES = [
  "documents",
  "audit_events",
  "reference_reservations",
  "document_summaries",
  "event_outbox",
  "events",
  "webhook_deliveries",
  "webhook_attempts",
  "efti_follow_ups",
  "efti_gate_calls",
  "efti_gate_refusals",
  "efti_registrations",
] as const;

/**
 * The growing tables a plan reads whole. A scan through a covering index
 * (`SCAN t USING COVERING INDEX i`) counts: it reads one index entry per row.
 */
export function scannedTables(plan: readonly string[]): string[] {
  const pattern = new RegExp(
    `^SCAN (?:TABLE )?(${GROWING_TABLES.join("|")})\\b`,
  );
  return plan.flatMap((step) => pattern.exec(step)?.[1] ?? []);
}

/**
 * The tables `source` declares a bounded scan of inside the export `name`
 * (from its declaration to the next export): each by a comment
 * `// Bounded scan of <table>: <why>`, so that an exception carries its reason.
 */
export function declaredBoundedScans(source: string, name: string): string[] {
  const start = source.search(
    new RegExp(`export (?:async )?(?:function|const) ${name}\\b`),
  );
  if (start < 0) return [];
  const next = source.indexOf("\nexport ", start + 1);
  const body = source.slice(start, next < 0 ? undefined : next);
  return [...body.matchAll(/\/\/ Bounded scan of (\w+): \S/g)].map(
    (match) => match[1] as string,
  );
}

/** A D1 binding that notes the SQL of every statement prepared through it. */
export function recordingStatements(
  d1: D1Database,
  onPrepare: (sql: string) => void,
): D1Database {
  return new Proxy(d1, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "prepare") {
        return (sql: string) => {
          onPrepare(sql);
          return target.prepare(sql);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
