import { describe, expect, it } from "vitest";
import {
  fullRequest,
  groupedRequest,
  minimalRequest,
  type RequestBody,
} from "../../../fixtures/requests";
import { GROUPED_SHIPMENTS } from "../../../src/schemas/document-request";
import { createCredential } from "../../helpers/credentials";
import { documentsApi, qrPath, sha256Of } from "../../helpers/documents-api";
import {
  bearer,
  callWithClock,
  fixedClock,
  HEAVY_TEST_MS,
} from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);

/** A grouped route of `count` shipments, with a reference to retry it by. */
const route = (count: number, reference = "RUTA-2026-0001"): RequestBody => ({
  ...groupedRequest(count),
  reference,
});

async function setup() {
  const clock = fixedClock(NOW);
  const request = callWithClock(clock);
  const { key } = await createCredential();
  return { clock, request, key, api: documentsApi(request, key) };
}

async function validationErrors(response: Response) {
  expect(response.status).toBe(422);
  const { errors } = (await response.json()) as {
    errors: { field: string | null; code: string }[];
  };
  return errors.map(({ field, code }) => [field, code]);
}

describe("a grouped document through the API", () => {
  it("is issued with its shipments normalized and no top-level origin, destination or goods", async () => {
    const { api } = await setup();
    const body = route(3);
    body.shipments[0].origin.country = "es";
    body.shipments[1].goods.weight_kg = "12.500";
    const response = await api.create(body);
    expect(response.status).toBe(201);
    const { data, pdf } = (await response.json()) as RequestBody;
    expect(Object.keys(data)).toEqual([
      "transport_date",
      "shipper",
      "carrier",
      "shipments",
      "vehicle",
      "reference",
      "special_authorization",
      "observations",
    ]);
    expect(data.shipments).toHaveLength(3);
    expect(data.shipments[0]).toEqual({
      origin: {
        place: "Almacén Central, muelle 1",
        street: null,
        postal_code: null,
        city: "Madrid",
        country: "ES",
      },
      destination: {
        place: "Tienda 1",
        street: null,
        postal_code: "45001",
        city: "Toledo",
        country: "ES",
      },
      goods: {
        description: "Pedido 1",
        weight_kg: "1",
        alternative_measure: null,
      },
    });
    expect(data.shipments[1].goods.weight_kg).toBe("12.5");
    expect(data.shipments[2].goods).toEqual({
      description: "Pedido 3",
      weight_kg: null,
      alternative_measure: { value: "3", unit: "palés" },
    });
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
  });

  it("keeps a single document's data without a shipments key", async () => {
    const { api } = await setup();
    const { data } = await api.issue(fullRequest());
    expect(data).not.toHaveProperty("shipments");
    expect(data).toHaveProperty("goods");
  });

  it("answers an identical retry 200 with the original, and other shipments 409", async () => {
    const { api } = await setup();
    const original = await api.issue(route(4));
    const retry = await api.create(route(4));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(original);
    // The order of the shipments is the document's: another order is another request.
    const reordered = route(4);
    reordered.shipments.reverse();
    expect((await api.create(reordered)).status).toBe(409);
  });

  it("is listed, read, asked its status and downloaded, by uuid and by reference", async () => {
    const { api, request, key } = await setup();
    const document = await api.issue(route(5));
    const { data: listed } = (await (await api.list()).json()) as {
      data: { uuid: string }[];
    };
    expect(listed.map(({ uuid }) => uuid)).toEqual([document.uuid]);
    for (const address of [document.uuid, `ref/${document.reference}`]) {
      expect(await (await api.get(address)).json()).toEqual(document);
      expect(await (await api.status(address)).json()).toEqual({
        status: "active",
      });
    }
    const downloads = [
      await request(new URL(document.pdf_download_url).pathname, bearer(key)),
      await request(qrPath(document.url)),
    ];
    for (const download of downloads) {
      expect(download.status).toBe(200);
      expect(download.headers.get("Content-Type")).toBe("application/pdf");
      expect(await sha256Of(await download.arrayBuffer())).toBe(
        document.pdf.sha256,
      );
    }
  });

  it("is corrected into another grouped document, from a single one, and back into a single one", async () => {
    const { api, clock } = await setup();
    const single = await api.issue(fullRequest());
    const steps: [string, RequestBody, string[]][] = [
      ["single → grouped", route(3, "RUTA-B"), ["shipments"]],
      ["grouped → grouped", route(6, "RUTA-C"), ["shipments"]],
      [
        "grouped → single",
        { ...minimalRequest(), reference: "RUTA-D" },
        ["origin", "destination", "goods"],
      ],
    ];
    let current = single;
    for (const [step, body, keys] of steps) {
      clock.advance(60_000);
      const response = await api.rectify(current.uuid, body);
      expect(response.status, step).toBe(200);
      const correction = (await response.json()) as typeof single;
      expect(correction.rectifies_uuid, step).toBe(current.uuid);
      const shapeKeys = ["origin", "destination", "goods", "shipments"];
      expect(
        Object.keys(correction.data).filter((key) => shapeKeys.includes(key)),
        step,
      ).toEqual(keys);
      current = correction;
    }
    expect(current.data).toMatchObject({
      goods: { description: "Material de oficina" },
    });
  });

  it("is deleted like a single one", async () => {
    const { api } = await setup();
    const document = await api.issue(route(2));
    expect((await api.remove(document.uuid)).status).toBe(204);
    expect(await (await api.status(document.uuid)).json()).toEqual({
      status: "deleted",
    });
    expect((await api.get(document.uuid)).status).toBe(404);
  });

  it(
    "issues the most shipments a document may group, and refuses one more",
    async () => {
      const { api } = await setup();
      const most = await api.issue(route(GROUPED_SHIPMENTS.max));
      expect((most.data as RequestBody).shipments).toHaveLength(
        GROUPED_SHIPMENTS.max,
      );
      expect(
        await validationErrors(
          await api.create(route(GROUPED_SHIPMENTS.max + 1, "RUTA-X")),
        ),
      ).toEqual([["shipments", "TOO_LONG"]]);
      expect(
        await validationErrors(
          await api.create(route(GROUPED_SHIPMENTS.min - 1, "RUTA-Y")),
        ),
      ).toEqual([["shipments", "TOO_SHORT"]]);
    },
    HEAVY_TEST_MS,
  );
});

describe("validation of grouped bodies through the API", () => {
  it("names the shipment's zero-based index in each error, in body order", async () => {
    const { api } = await setup();
    const body = route(5);
    body.shipments[3].goods.weight_kg = "heavy";
    body.shipments[1].destination.country = "FR";
    body.shipments[4].extra = true;
    body.carrier.tax_id = "A5881850X";
    expect(await validationErrors(await api.create(body))).toEqual([
      ["carrier.tax_id", "INVALID_TAX_ID"],
      ["shipments.1.destination.country", "INVALID_VALUE"],
      ["shipments.3.goods.weight_kg", "INVALID_DECIMAL"],
      ["shipments.4.extra", "UNKNOWN_FIELD"],
    ]);
  });

  it("answers both shapes with EXACTLY_ONE_REQUIRED on shipments, and neither with REQUIRED on each field of one shipment", async () => {
    const { api } = await setup();
    const { origin, destination, goods, ...neither } = minimalRequest();
    expect(
      await validationErrors(await api.create({ ...route(2), goods })),
    ).toEqual([["shipments", "EXACTLY_ONE_REQUIRED"]]);
    expect(
      await validationErrors(await api.rectify("ref/NONE", neither)),
    ).toEqual([
      ["origin", "REQUIRED"],
      ["destination", "REQUIRED"],
      ["goods", "REQUIRED"],
    ]);
    expect(
      await validationErrors(await api.create({ ...neither, shipments: null })),
    ).toEqual([
      ["origin", "REQUIRED"],
      ["destination", "REQUIRED"],
      ["goods", "REQUIRED"],
    ]);
  });
});
