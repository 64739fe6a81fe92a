/** Whether D1 refused a write because a unique index already holds the value. */
export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Error &&
  /UNIQUE constraint failed|SQLITE_CONSTRAINT/.test(
    `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}`,
  );
