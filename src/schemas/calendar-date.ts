import * as z from "zod";

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (`2026-02-30` is not). */
function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

export const calendarDate = z
  .string()
  .check(
    z.refine(isCalendarDate, {
      message: "Must be a real calendar date written YYYY-MM-DD.",
      params: { code: "INVALID_DATE" },
    }),
  )
  .meta({ format: "date", pattern: DATE_PATTERN.source });
