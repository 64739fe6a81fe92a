/**
 * The one logger of failures: a JSON line of what the failure happened to
 * (`about`: an event and its task, or a request id), the error's name and
 * message, and the stack of an unexpected one; never a value of the request.
 */
export function logFailure(
  about: Record<string, string>,
  error: unknown,
  { stack = false }: { stack?: boolean } = {},
): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  console.error(
    JSON.stringify({
      ...about,
      error: failure.name,
      message: failure.message,
      ...(stack ? { stack: failure.stack } : {}),
    }),
  );
}
