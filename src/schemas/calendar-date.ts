import * as z from "zod";

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

// By arithmetic rather than Date.UTC, which reads the years 0 to 99 as 1900
// to 1999: every year 0000–9999 is judged by the Gregorian calendar.
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number): boolean =>
  year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** True for a real calendar date written `YYYY-MM-DD` (`2026-02-30` is not). */
function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [
    number,
    number,
    number,
  ];
  const daysInMonth = DAYS_IN_MONTH[month - 1];
  if (daysInMonth === undefined) return false;
  const leapDay = month === 2 && isLeapYear(year) ? 1 : 0;
  return day >= 1 && day <= daysInMonth + leapDay;
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
