/**
 * One JSON line for a failure the answer survives: the error's name and
 * message, never a value of the request.
 */
export function logFailure(
  event: string,
  error: unknown,
  context: Record<string, string> = {},
): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  console.error(
    JSON.stringify({
      event,
      ...context,
      error: failure.name,
      message: failure.message,
    }),
  );
}
