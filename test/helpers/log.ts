import { afterEach, beforeEach, vi } from "vitest";

/**
 * Every line the code under test writes to the console during each test of
 * the calling suite, kept instead of printed.
 */
export function capturedLog(): string[] {
  const logged: string[] = [];
  beforeEach(() => {
    logged.length = 0;
    for (const method of ["log", "error", "warn", "info", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      });
    }
  });
  afterEach(() => vi.restoreAllMocks());
  return logged;
}
