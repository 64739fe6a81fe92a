import { describe, expect, it } from "vitest";
import {
  dateIn,
  originTimeZone,
} from "../../src/domain/documents/origin-time-zone";

describe("the time zone of the place of loading", () => {
  it.each([
    ["35001", "Atlantic/Canary"], // Las Palmas de Gran Canaria
    ["38003", "Atlantic/Canary"], // Santa Cruz de Tenerife
    ["28906", "Europe/Madrid"],
    ["07001", "Europe/Madrid"], // Palma: the Balearic Islands keep peninsular time
    ["53500", "Europe/Madrid"],
    ["3", "Europe/Madrid"],
    [null, "Europe/Madrid"],
  ] as const)("postal code %s is in %s", (postalCode, zone) => {
    expect(originTimeZone({ postal_code: postalCode })).toBe(zone);
  });
});

describe("the date at the origin", () => {
  it.each([
    // Winter: Madrid at UTC+1, the Canaries at UTC+0.
    [Date.UTC(2026, 10, 21, 22, 59), "Europe/Madrid", "2026-11-21"],
    [Date.UTC(2026, 10, 21, 23), "Europe/Madrid", "2026-11-22"],
    [Date.UTC(2026, 10, 21, 23, 59), "Atlantic/Canary", "2026-11-21"],
    // Summer: Madrid at UTC+2, the Canaries at UTC+1.
    [Date.UTC(2026, 6, 1, 22), "Europe/Madrid", "2026-07-02"],
    [Date.UTC(2026, 6, 1, 22), "Atlantic/Canary", "2026-07-01"],
    [Date.UTC(2026, 6, 1, 23), "Atlantic/Canary", "2026-07-02"],
  ] as const)("at %d in %s is %s", (at, zone, date) => {
    expect(dateIn(zone, at)).toBe(date);
  });
});
