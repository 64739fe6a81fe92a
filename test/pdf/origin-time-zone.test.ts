import { describe, expect, it } from "vitest";
import { originTimeZone } from "../../src/pdf/origin-time-zone";

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
