import { describe, expect, it } from "vitest";
import { groupedRequest, minimalRequest } from "../../../fixtures/requests";
import { consignmentWithId } from "../../../src/domain/efti/consignment";
import { datasetId } from "../../../src/domain/efti/dataset-id";
import { consignmentXml } from "../../../src/domain/efti/subsets";
import type { DocumentData } from "../../../src/schemas/document-request";
import { createCredential } from "../../helpers/credentials";
import {
  comparable,
  type DocumentResultBody,
  demoDocumentsApi,
  documentsApi,
  freshNetwork,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { bearer, type Call, ORIGIN } from "../../helpers/worker";

// docs/api.md, eFTI data: a document's datasets and each consignment's XML,
// under the rules of the document's GET. The XML's validity against the XSD
// is proven in Node (test/efti/export.test.ts validates what
// `consignmentWithId` writes); here, that the Worker serves exactly that.

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 8);
const NEVER_ISSUED = "00000000-0000-4000-8000-000000000000";

interface Dataset {
  shipment: number;
  dataset_id: string;
  url: string;
}

/** A dataset's XML at the URL its list gave, with `key`. */
const at = (request: Call, key: string, url: string) =>
  request(url.replace(ORIGIN, ""), bearer(key));

/**
 * The texts of the elements `name` in `xml`, within the element `within`
 * when given: enough to read the export's own writing (one element a line).
 * The XML parsers of npm bring the DOM's types, which the Worker's lack.
 */
function textsOf(xml: string, name: string, within?: string): string[] {
  const scope = within
    ? (xml.match(new RegExp(`<${within}>[\\s\\S]*?</${within}>`))?.[0] ?? "")
    : xml;
  return [
    ...scope.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, "g")),
  ].map(([, text = ""]) =>
    text
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&#13;", "\r")
      .replaceAll("&amp;", "&"),
  );
}

async function datasetsIn(response: Response): Promise<Dataset[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(response.headers.get("Cache-Control")).toBe("no-store, private");
  return ((await response.json()) as { data: Dataset[] }).data;
}

/** What the export writes for `document`'s dataset `id`: the Node tests validate it. */
async function expectedXml(document: DocumentResultBody, id: string) {
  const consignment = await consignmentWithId(
    {
      uuid: document.uuid,
      createdAt: Date.parse(document.created_at),
      rectifiesUuid: document.rectifies_uuid,
      rectifiedByUuid: null,
      data: document.data as DocumentData,
    },
    id,
  );
  if (!consignment) throw new Error(`no dataset ${id}`);
  return consignmentXml(consignment.root);
}

async function xmlIn(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe(
    "application/xml; charset=utf-8",
  );
  expect(response.headers.get("Cache-Control")).toBe("no-store, private");
  return response.text();
}

const setup = async () => {
  const issued = await withIssuedDocument(NOW);
  const { request, owner, api } = issued;
  return {
    ...issued,
    efti: {
      list: (address: string) => api.efti(address),
      xml: (address: string, id: string) => api.efti(address, id),
      at: (url: string) => at(request, owner.key, url),
    },
  };
};

describe("GET /api/v1/documents/{uuid}/efti and its consignments", () => {
  it("lists the one dataset of a single document, at both addresses, and serves its XML at its URL", async () => {
    const { efti, document } = await setup();
    const id = await datasetId(document.uuid, 1);
    const expected = [
      {
        shipment: 1,
        dataset_id: id,
        url: `${ORIGIN}/api/v1/documents/${document.uuid}/efti/${id}`,
      },
    ];
    expect(await datasetsIn(await efti.list(document.uuid))).toEqual(expected);
    expect(
      await datasetsIn(await efti.list(`ref/${document.reference}`)),
    ).toEqual(expected);

    const xml = await xmlIn(await efti.at(expected[0]?.url ?? ""));
    expect(xml).toBe(await expectedXml(document, id));
    expect(await xmlIn(await efti.xml(`ref/${document.reference}`, id))).toBe(
      xml,
    );
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<consignment xmlns="http:\/\/efti.eu\/v1\/consignment\/common">/,
    );
    // A NIF with its country as scheme; an id written as a VAT number as it is.
    expect(xml).toContain('<id schemeAgencyId="ES">B12345674</id>');
    expect(textsOf(xml, "id", "carrier")).toEqual(["RO123456"]);
    expect(textsOf(xml, "information")).toContain(
      `Issued at: ${document.created_at}`,
    );
    expect(textsOf(xml, "carrierAcceptanceDateTime")).toEqual(["20261121"]);
    expect(textsOf(xml, "information")).toContain(
      `DeCA document: ${document.uuid}`,
    );
  });

  it("gives a grouped document one dataset per shipment, each XML its own shipment", async () => {
    const { api, efti } = await setup();
    const document = await api.issue({
      ...groupedRequest(3),
      reference: "RUTA-EFTI-1",
    });
    const datasets = await datasetsIn(await efti.list(document.uuid));
    expect(datasets.map((dataset) => dataset.shipment)).toEqual([1, 2, 3]);
    expect(new Set(datasets.map((dataset) => dataset.dataset_id)).size).toBe(3);
    expect(datasets.map((dataset) => dataset.dataset_id)).toEqual(
      await Promise.all([1, 2, 3].map((n) => datasetId(document.uuid, n))),
    );
    for (const { shipment, dataset_id, url } of datasets) {
      const xml = await xmlIn(await efti.at(url));
      expect(xml).toBe(await expectedXml(document, dataset_id));
      expect(await xmlIn(await efti.xml(`ref/RUTA-EFTI-1`, dataset_id))).toBe(
        xml,
      );
      expect(textsOf(xml, "name", "consigneeReceiptLocation")).toEqual([
        `Tienda ${shipment}`,
      ]);
      expect(textsOf(xml, "identificationText")).toEqual([
        `Pedido ${shipment}`,
      ]);
      expect(textsOf(xml, "information")[0]).toBe(
        `DeCA document: ${document.uuid}, shipment ${shipment} of 3`,
      );
    }
    // The third has an alternative measure and no weight.
    const third = await xmlIn(await efti.at(datasets[2]?.url ?? ""));
    expect(textsOf(third, "grossWeight")).toEqual([]);
    expect(textsOf(third, "information")).toContain(
      "Alternative measure: 3 palés",
    );
  });

  it("takes goods.dangerous_goods, keeps it in the data and exports it as the dangerous goods indicator", async () => {
    const { api, efti } = await setup();
    const body = minimalRequest();
    body.goods.dangerous_goods = true;
    const document = await api.issue(body);
    expect(document.data).toMatchObject({ goods: { dangerous_goods: true } });
    const [dataset] = await datasetsIn(await efti.list(document.uuid));
    const xml = await xmlIn(await efti.at(dataset?.url ?? ""));
    expect(textsOf(xml, "dangerousGoodsIndicator")).toEqual(["true"]);

    const plain = await api.issue({
      ...minimalRequest(),
      goods: { ...minimalRequest().goods, dangerous_goods: null },
    });
    expect(plain.data).not.toHaveProperty("goods.dangerous_goods");
    const [other] = await datasetsIn(await efti.list(plain.uuid));
    expect(
      textsOf(
        await xmlIn(await efti.at(other?.url ?? "")),
        "dangerousGoodsIndicator",
      ),
    ).toEqual(["false"]);
  });

  it("takes vehicle.trailer_kind in a create, the dry run and a correction, and exports the trailer's category", async () => {
    const { api, efti } = await setup();
    const withTrailer = (kind: string | null) => {
      const body = minimalRequest();
      body.vehicle = {
        ...body.vehicle,
        trailer_country: "ES",
        trailer_registration: "R1234BCD",
        trailer_kind: kind,
      };
      return body;
    };
    const category = async (uuid: string) => {
      const [dataset] = await datasetsIn(await efti.list(uuid));
      return textsOf(
        await xmlIn(await efti.at(dataset?.url ?? "")),
        "categoryCode",
      );
    };
    expect((await api.validate(withTrailer("semi_trailer"))).status).toBe(200);
    const semi = await api.issue(withTrailer("semi_trailer"));
    expect(semi.data).toMatchObject({
      vehicle: { trailer_kind: "semi_trailer" },
    });
    expect(await category(semi.uuid)).toEqual(["SM"]);

    const response = await api.rectify(semi.uuid, withTrailer("trailer"));
    expect(response.status).toBe(200);
    const corrected = (await response.json()) as DocumentResultBody;
    expect(await category(corrected.uuid)).toEqual(["TE"]);

    const unstated = await api.issue(withTrailer(null));
    expect(unstated.data).not.toHaveProperty("vehicle.trailer_kind");
    expect(await category(unstated.uuid)).toEqual(["TE"]);

    const alone = minimalRequest();
    alone.vehicle = { ...alone.vehicle, trailer_kind: "trailer" };
    expect((await api.validate(alone)).status).toBe(422);
  });

  it("names the corrected version in a correction's consignment, with new dataset ids", async () => {
    const { api, efti, document } = await setup();
    const response = await api.rectify(document.uuid, {
      ...minimalRequest(),
      reference: "PED-2026-0001-R",
    });
    expect(response.status).toBe(200);
    const rectified = (await response.json()) as DocumentResultBody;
    const [dataset] = await datasetsIn(await efti.list(rectified.uuid));
    expect(dataset?.dataset_id).not.toBe(await datasetId(document.uuid, 1));
    const xml = await xmlIn(await efti.at(dataset?.url ?? ""));
    expect(xml).toBe(await expectedXml(rectified, dataset?.dataset_id ?? ""));
    expect(textsOf(xml, "information")).toContain(
      `Rectifies DeCA document: ${document.uuid}`,
    );
  });

  it("answers one identical 404 for another key's, an unknown, a deleted and an old document", async () => {
    const { clock, request, api, efti, document, owner } = await setup();
    const id = await datasetId(document.uuid, 1);
    const reference = await comparable(await efti.list(NEVER_ISSUED));
    expect(reference.status).toBe(404);
    expect(JSON.parse(reference.body)).toEqual({
      errors: [{ field: null, code: "NOT_FOUND", message: expect.any(String) }],
    });
    const expectNotFound = async (response: Promise<Response>) =>
      expect(await comparable(await response)).toEqual(reference);
    await expectNotFound(
      efti.xml(NEVER_ISSUED, await datasetId(NEVER_ISSUED, 1)),
    );

    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    for (const other of [colleague, await createCredential()]) {
      const foreign = documentsApi(request, other.key);
      await expectNotFound(foreign.efti(document.uuid));
      await expectNotFound(foreign.efti(`ref/${document.reference}`));
      await expectNotFound(foreign.efti(document.uuid, id));
      await expectNotFound(foreign.efti(`ref/${document.reference}`, id));
    }

    const deleted = await api.issue(minimalRequest());
    const deletedId = await datasetId(deleted.uuid, 1);
    expect((await efti.xml(deleted.uuid, deletedId)).status).toBe(200);
    expect((await api.remove(deleted.uuid)).status).toBe(204);
    await expectNotFound(efti.list(deleted.uuid));
    await expectNotFound(efti.xml(deleted.uuid, deletedId));

    clock.set(NOW + 24 * HOUR - 1);
    expect((await efti.list(document.uuid)).status).toBe(200);
    expect((await efti.xml(document.uuid, id)).status).toBe(200);
    clock.set(NOW + 24 * HOUR);
    await expectNotFound(efti.list(document.uuid));
    await expectNotFound(efti.list(`ref/${document.reference}`));
    await expectNotFound(efti.xml(document.uuid, id));
  });

  it("answers the same 404 for a dataset id that is not the document's, or is no dataset id", async () => {
    const { api, efti, document } = await setup();
    const reference = await comparable(await efti.list(NEVER_ISSUED));
    const other = await api.issue(minimalRequest());
    const own = await datasetId(document.uuid, 1);
    for (const id of [
      // Another document of the same key, and a shipment the document lacks.
      await datasetId(other.uuid, 1),
      await datasetId(document.uuid, 2),
      NEVER_ISSUED,
      // Malformed: not a uuid, upper case, too short, the document's own uuid twice.
      "not-a-dataset-id",
      own.toUpperCase(),
      own.slice(0, -1),
      `${own}${own}`,
    ]) {
      for (const address of [document.uuid, `ref/${document.reference}`]) {
        expect(await comparable(await efti.xml(address, id))).toEqual(
          reference,
        );
      }
    }
  });

  it("reads a reference spelled efti, and serves a demo token's document as its GET does", async () => {
    const { api, efti } = await setup();
    const issued = await api.issue({ ...minimalRequest(), reference: "efti" });
    const byReference = await api.get("ref/efti");
    expect(((await byReference.json()) as { uuid: string }).uuid).toBe(
      issued.uuid,
    );
    const [dataset] = await datasetsIn(await efti.list("ref/efti"));
    expect(dataset?.dataset_id).toBe(await datasetId(issued.uuid, 1));

    // A demo token reads its own document's datasets, as its GET.
    const { request } = await setup();
    const demoApi = await demoDocumentsApi(request, freshNetwork());
    const demo = await demoApi.issue(minimalRequest());
    const [demoDataset] = await datasetsIn(await demoApi.efti(demo.uuid));
    expect(demoDataset?.dataset_id).toBe(await datasetId(demo.uuid, 1));
    const demoXml = await xmlIn(
      await demoApi.efti(demo.uuid, demoDataset?.dataset_id),
    );
    expect(demoXml).toBe(
      await expectedXml(demo, demoDataset?.dataset_id ?? ""),
    );
    expect((await api.efti(demo.uuid)).status).toBe(404);
  });
});
