import { describe, expect, it } from "vitest";
import { PRINTED_TIMES, ZONE_NAMES } from "../../fixtures/local-times";
import { formatLocalTime } from "../../src/pdf/format";

// workerd's own ICU, as in production: the same times as in Node.
describe("the time of issue inside the Worker", () => {
  it.each(PRINTED_TIMES)(
    "prints $utc in $timeZone as $printed",
    ({ utc, timeZone, printed }) => {
      expect(
        formatLocalTime(Date.parse(utc), timeZone, ZONE_NAMES[timeZone]),
      ).toBe(printed);
    },
  );
});
