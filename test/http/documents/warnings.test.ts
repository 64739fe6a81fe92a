import { describe, expect, it } from "vitest";
import {
  groupedRequest,
  minimalRequest,
  type RequestBody,
} from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import { documentsApi } from "../../helpers/documents-api";
import { callWithClock, fixedClock } from "../../helpers/worker";

// docs/api.md, Warnings: a transport date before today at the origin (in
// the time zone the PDF prints) is issued with TRANSPORT_DATE_PAST.

/** 23:30 UTC on 21 November: already the 22nd in Madrid (UTC+1), still the 21st in the Canaries (UTC+0). */
const LATE_EVENING = Date.UTC(2026, 10, 21, 23, 30);
const HOUR = 3_600_000;

const PAST_DATE = [
  {
    code: "TRANSPORT_DATE_PAST",
    field: "transport_date",
    message: expect.stringContaining("transport_date"),
  },
];

const dated = (
  transportDate: string,
  body: RequestBody = minimalRequest(),
): RequestBody => ({ ...body, transport_date: transportDate });

/** The minimal body loading in Las Palmas de Gran Canaria. */
function fromTheCanaries(body: RequestBody = minimalRequest()): RequestBody {
  return {
    ...body,
    origin: {
      place: "Muelle Grande",
      postal_code: "35008",
      city: "Las Palmas de Gran Canaria",
      country: "ES",
    },
  };
}

async function setup(now = LATE_EVENING) {
  const { key } = await createCredential();
  const clock = fixedClock(now);
  return { clock, api: documentsApi(callWithClock(clock), key) };
}

async function answer(response: Response, status = 200) {
  expect(response.status).toBe(status);
  return (await response.json()) as { uuid: string; warnings?: unknown };
}

describe("a transport date in the past", () => {
  it("is issued with TRANSPORT_DATE_PAST, also on a retry and when read", async () => {
    const { clock, api } = await setup();
    const body = { ...dated("2026-11-21"), reference: "PASADO-1" };
    const created = await answer(await api.create(body), 201);
    expect(created.warnings).toEqual(PAST_DATE);
    clock.advance(HOUR);
    const retried = await answer(await api.create(body));
    expect(retried).toEqual(created);
    expect(await answer(await api.get(created.uuid))).toEqual(created);
  });

  it("is corrected with TRANSPORT_DATE_PAST, and a correction dated today carries none", async () => {
    const { api } = await setup();
    const original = await answer(await api.create(dated("2026-11-20")), 201);
    expect(original.warnings).toEqual(PAST_DATE);
    const past = await answer(
      await api.rectify(original.uuid, dated("2026-11-21")),
    );
    expect(past.warnings).toEqual(PAST_DATE);
    const today = await answer(
      await api.rectify(past.uuid, dated("2026-11-22")),
    );
    expect(today).not.toHaveProperty("warnings");
  });

  it("is checked by the dry run", async () => {
    const { api } = await setup();
    const past = await answer(await api.validate(dated("2026-11-21")));
    expect(past.warnings).toEqual(PAST_DATE);
    for (const date of ["2026-11-22", "2026-11-23", "2027-01-01"]) {
      expect(await answer(await api.validate(dated(date)))).not.toHaveProperty(
        "warnings",
      );
    }
  });

  it("is judged by today at the origin: the Canaries' clocks are an hour behind", async () => {
    const { api } = await setup();
    const canary = fromTheCanaries(dated("2026-11-21"));
    expect(await answer(await api.create(canary), 201)).not.toHaveProperty(
      "warnings",
    );
    expect(await answer(await api.validate(canary))).not.toHaveProperty(
      "warnings",
    );
    const yesterday = fromTheCanaries(dated("2026-11-20"));
    expect((await answer(await api.validate(yesterday))).warnings).toEqual(
      PAST_DATE,
    );
  });

  it("is judged, for a grouped document, at its first shipment's origin", async () => {
    const { api } = await setup();
    const grouped = dated("2026-11-21", groupedRequest(2));
    expect((await answer(await api.create(grouped), 201)).warnings).toEqual(
      PAST_DATE,
    );
    const [first, second] = grouped.shipments;
    const fromCanary = {
      ...grouped,
      shipments: [fromTheCanaries(first), second],
    };
    expect(await answer(await api.create(fromCanary), 201)).not.toHaveProperty(
      "warnings",
    );
  });
});

describe("a transport date today or later", () => {
  it("is issued without warnings, from the first minute of the day at the origin", async () => {
    // 23:00 UTC on the 21st is midnight on the 22nd in Madrid.
    const { api } = await setup(Date.UTC(2026, 10, 21, 23));
    for (const date of ["2026-11-22", "2026-12-31"]) {
      expect(
        await answer(await api.create(dated(date)), 201),
      ).not.toHaveProperty("warnings");
    }
    expect(
      (await answer(await api.create(dated("2026-11-21")), 201)).warnings,
    ).toEqual(PAST_DATE);
  });
});
