// How data values are printed. Numbers use the Spanish convention in every
// locale (docs/api.md, The PDF): dots between thousands, a decimal comma.

import { wallTimeIn } from "../clock";

/** Up to 3 decimals: the weight of a load needs no more (docs/api.md, The PDF). */
const WEIGHT_DECIMALS = 3;
/** A PositiveDecimal has at most 6 decimals, so this prints it exactly. */
const MEASURE_DECIMALS = 6;

/** Adds one to a string of digits, carrying as on paper. */
function incrementDigits(digits: string): string {
  const result = digits.split("");
  for (let i = result.length - 1; i >= 0; i--) {
    if (result[i] !== "9") {
      result[i] = String(Number(result[i]) + 1);
      return result.join("");
    }
    result[i] = "0";
  }
  return `1${result.join("")}`;
}

/**
 * Rounds a non-negative decimal string (`12345.6785`) half up to at most
 * `decimals` places, on its digits, since a float would misround
 * (`1.0005` is `1.000499…` as a double). Trailing zeros are dropped.
 */
function roundDecimal(
  value: string,
  decimals: number,
): { integer: string; fraction: string } {
  const [integer = "0", fraction = ""] = value.split(".");
  const kept = integer + fraction.slice(0, decimals).padEnd(decimals, "0");
  const roundsUp = (fraction[decimals] ?? "0") >= "5";
  const digits = roundsUp ? incrementDigits(kept) : kept;
  const integerLength = digits.length - decimals;
  return {
    integer: digits.slice(0, integerLength).replace(/^0+(?=\d)/, ""),
    fraction: digits.slice(integerLength).replace(/0+$/, ""),
  };
}

const groupThousands = (integer: string): string =>
  integer.replace(/\B(?=(\d{3})+$)/g, ".");

/** `1234567.5` with 3 decimals → `1.234.567,5`. */
function formatDecimal(value: string, decimals: number): string {
  const { integer, fraction } = roundDecimal(value, decimals);
  const grouped = groupThousands(integer);
  return fraction ? `${grouped},${fraction}` : grouped;
}

/**
 * A weight in kilograms: `12345.6785` → `12.345,679 kg`. A weight that is
 * positive but rounds to zero prints as `< 0,001 kg`, never as a false `0 kg`.
 */
export function formatWeight(kilograms: string): string {
  const printed = formatDecimal(kilograms, WEIGHT_DECIMALS);
  if (printed === "0") return "< 0,001 kg";
  return `${printed} kg`;
}

/** An alternative measure, exact, with its unit as given: `1.250,5 m³`. */
export const formatMeasure = (value: string, unit: string): string =>
  `${formatDecimal(value, MEASURE_DECIMALS)} ${unit}`;

/** A calendar date as a Spanish reader writes it: `2026-11-21` → `21/11/2026`. */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-");
  return `${day}/${month}/${year}`;
}

const MINUTE = 60_000;

const twoDigits = (value: number): string => String(value).padStart(2, "0");

/**
 * A time as the clocks of a time zone showed it, to the minute, with the
 * zone's offset and its name: `23/11/2026 14:16 (UTC+01:00, hora peninsular)`.
 * The offset comes from the wall time itself, so it is right on either side
 * of a change of daylight-saving time.
 */
export function formatLocalTime(
  epochMilliseconds: number,
  timeZone: string,
  zoneName: string,
): string {
  const minute = Math.floor(epochMilliseconds / MINUTE) * MINUTE;
  const part = wallTimeIn(timeZone, minute);
  const wall = Date.UTC(
    Number(part.year),
    Number(part.month) - 1,
    Number(part.day),
    Number(part.hour),
    Number(part.minute),
  );
  const offset = (wall - minute) / MINUTE;
  const sign = offset < 0 ? "-" : "+";
  const hours = twoDigits(Math.floor(Math.abs(offset) / 60));
  const minutes = twoDigits(Math.abs(offset) % 60);
  const date = formatDate(`${part.year}-${part.month}-${part.day}`);
  return `${date} ${part.hour}:${part.minute} (UTC${sign}${hours}:${minutes}, ${zoneName})`;
}
