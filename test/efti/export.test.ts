import type { Element } from "@xmldom/xmldom";
import { beforeAll, describe, expect, it } from "vitest";
import { LONGEST_DOCUMENT } from "../../fixtures/documents";
import {
  fullRequest,
  groupedRequest,
  minimalRequest,
} from "../../fixtures/requests";
import {
  COMMON_NAMESPACE,
  IDENTIFIER_NAMESPACE,
} from "../../src/domain/efti/codes";
import {
  type Consignment,
  consignmentsOf,
  consignmentWithId,
  datasetsOf,
  type ExportedDocument,
} from "../../src/domain/efti/consignment";
import { datasetId } from "../../src/domain/efti/dataset-id";
import {
  consignmentXml,
  identifierXml,
  subsetOf,
  withdrawnIdentifierXml,
} from "../../src/domain/efti/subsets";
import { newDocumentUuid } from "../../src/domain/shard-routing";
import { DOCUMENT_UUID, ISSUED_AT, storedDocument } from "./documents";
import { elementsAt, rootOf, textAt, textsAt } from "./read-xml";
import { schemaErrors } from "./validate";

/** The item at `index`, which the test expects to be there. */
function at<T>(items: readonly T[], index: number): T {
  expect(items.length).toBeGreaterThan(index);
  return items[index] as T;
}

/** A party's tax id and the scheme it is written with (its schemeAgencyId). */
function taxIdAt(root: Element, party: "consignor" | "carrier") {
  const [id] = elementsAt(root, `${party}/taxRegistration/id`);
  return { id: id?.textContent, scheme: id?.getAttribute("schemeAgencyId") };
}

/** The document's consignments, each as the common data set's XML, checked valid. */
async function exported(document: ExportedDocument) {
  const consignments = await consignmentsOf(document);
  const xml = consignments.map((consignment) =>
    consignmentXml(consignment.root),
  );
  expect(await schemaErrors("consignment-common", xml)).toEqual([]);
  return {
    consignments,
    xml,
    roots: xml.map((text) => rootOf(text, COMMON_NAMESPACE)),
  };
}

/** The one consignment of a single-shipment document, read back. */
async function single(document: ExportedDocument) {
  const { consignments, roots } = await exported(document);
  expect(consignments).toHaveLength(1);
  return { consignment: at(consignments, 0), root: at(roots, 0) };
}

describe("the validator", () => {
  it("refuses a consignment the XSD does not allow", async () => {
    const { consignment } = await single(storedDocument(minimalRequest()));
    const valid = consignmentXml(consignment.root);
    const errors = await schemaErrors("consignment-common", [
      valid.replace('unitId="KGM"', 'unitId="LBR"'),
      valid.replace("<modeCode>3</modeCode>", "<modeCode>0</modeCode>"),
      // Out of the XSD's order.
      valid.replace(
        /(<carrier>[\s\S]*?<\/carrier>\n)([\s\S]*?)(<consignor>)/,
        "$2$1$3",
      ),
    ]);
    expect(errors.join("\n")).toMatch(/document-1\.xml.*unitId/);
    expect(errors.join("\n")).toMatch(/document-2\.xml.*modeCode/);
    expect(errors.join("\n")).toMatch(/document-3\.xml/);
  });
});

describe("a single document", () => {
  it("maps every datum of the minimal document", async () => {
    const { consignment, root } = await single(
      storedDocument(minimalRequest()),
    );
    expect(consignment.shipmentNumber).toBe(1);
    expect(textAt(root, "consignor/name")).toBe("Cargas Ejemplo SL");
    expect(taxIdAt(root, "consignor")).toEqual({
      id: "12345678Z",
      scheme: "ES",
    });
    expect(textsAt(root, "consignor/postalAddress/streetName")).toEqual([
      "Calle Uno 1",
    ]);
    expect(textAt(root, "consignor/postalAddress/postcode")).toBe("28001");
    expect(textAt(root, "consignor/postalAddress/cityName")).toBe("Madrid");
    expect(textAt(root, "consignor/postalAddress/countryCode")).toBe("ES");
    expect(textAt(root, "carrier/name")).toBe("Transportes Ejemplo SA");
    expect(taxIdAt(root, "carrier")).toEqual({ id: "A58818501", scheme: "ES" });
    expect(elementsAt(root, "carrier/postalAddress")).toHaveLength(0);
    const date = elementsAt(root, "carrierAcceptanceDateTime")[0];
    expect(date?.textContent).toBe("20261121");
    expect(date?.getAttribute("formatId")).toBe("102");
    expect(textAt(root, "carrierAcceptanceLocation/name")).toBe(
      "Almacén Central",
    );
    expect(
      textAt(root, "carrierAcceptanceLocation/postalAddress/cityName"),
    ).toBe("Madrid");
    expect(textAt(root, "consigneeReceiptLocation/name")).toBe("Tienda Centro");
    expect(
      textAt(root, "consigneeReceiptLocation/postalAddress/countryCode"),
    ).toBe("ES");
    expect(textAt(root, "natureIdentificationCargo/identificationText")).toBe(
      "Material de oficina",
    );
    const weight = elementsAt(root, "grossWeight")[0];
    expect(weight?.textContent).toBe("120");
    expect(weight?.getAttribute("unitId")).toBe("KGM");
    expect(textAt(root, "mainCarriageTransportMovement/modeCode")).toBe("3");
    expect(
      textAt(root, "mainCarriageTransportMovement/usedTransportMeans/id"),
    ).toBe("5678DFG");
    expect(
      textAt(
        root,
        "mainCarriageTransportMovement/usedTransportMeans/registrationCountry/code",
      ),
    ).toBe("ES");
    expect(
      textAt(root, "mainCarriageTransportMovement/usedTransportMeans/typeCode"),
    ).toBe("31");
    expect(elementsAt(root, "usedTransportEquipment")).toHaveLength(0);
    expect(textsAt(root, "information")).toEqual([
      `DeCA document: ${DOCUMENT_UUID}`,
      "Issued at: 2026-11-21T07:30:00.000Z",
    ]);
  });

  it("maps the full document: addresses, trailer, reference, authorization, observations", async () => {
    const { root } = await single(storedDocument(fullRequest()));
    expect(taxIdAt(root, "consignor")).toEqual({
      id: "B12345674",
      scheme: "ES",
    });
    // Written in the EU VAT form, its country's prefix first: a VAT number.
    expect(taxIdAt(root, "carrier")).toEqual({ id: "RO123456", scheme: null });
    expect(textAt(root, "carrier/postalAddress/cityName")).toBe("Αθήνα Ελλάδα");
    expect(textAt(root, "carrier/postalAddress/countryCode")).toBe("GR");
    expect(
      textAt(root, "carrierAcceptanceLocation/postalAddress/streetName"),
    ).toBe("Polígono Industrial Sur");
    expect(textAt(root, "consigneeReceiptLocation/name")).toBe(
      "Склад Москва (delegación Valencia)",
    );
    expect(
      textAt(root, "consigneeReceiptLocation/postalAddress/postcode"),
    ).toBe("46024");
    expect(textAt(root, "grossWeight")).toBe("12345.678");
    expect(textAt(root, "usedTransportEquipment/categoryCode")).toBe("TE");
    expect(textAt(root, "usedTransportEquipment/id")).toBe("R1234BCD");
    expect(
      textAt(root, "usedTransportEquipment/registrationCountry/code"),
    ).toBe("ES");
    expect(textsAt(root, "information")).toEqual([
      `DeCA document: ${DOCUMENT_UUID}`,
      "Issued at: 2026-11-21T07:30:00.000Z",
      "DeCA reference: PED-2026-0001",
      "Special authorization: AUT-77/2026, issued by DGT",
      "Observations: Entregar antes de las 14:00. Carga frágil.",
    ]);
  });

  it("names the document a correction rectifies, its issue time the correction's", async () => {
    const rectified = "7c0e9a51-2b3d-4e6f-8a9b-0c1d2e3f4a5b";
    const { root } = await single(
      storedDocument(fullRequest(), {
        rectifiesUuid: rectified,
        createdAt: ISSUED_AT + 45 * 60_000,
      }),
    );
    expect(textsAt(root, "information")).toEqual(
      expect.arrayContaining([
        "Issued at: 2026-11-21T08:15:00.000Z",
        `Rectifies DeCA document: ${rectified}`,
      ]),
    );
  });

  it("writes an alternative measure as information, and no gross weight", async () => {
    const body = minimalRequest();
    body.goods = {
      description: "Cable",
      alternative_measure: { value: "12.5", unit: "bobinas" },
    };
    const { root } = await single(storedDocument(body));
    expect(elementsAt(root, "grossWeight")).toHaveLength(0);
    expect(textsAt(root, "information")).toContain(
      "Alternative measure: 12.5 bobinas",
    );
  });

  it("writes the dangerous goods indicator of each shipment: true only when its goods are declared dangerous", async () => {
    const body = groupedRequest(3);
    const [first, second] = body.shipments;
    if (!first || !second) throw new Error("three shipments expected");
    first.goods.dangerous_goods = true;
    second.goods.dangerous_goods = false;
    const consignments = await consignmentsOf(storedDocument(body));
    const indicators = (xml: string[], namespace: string) =>
      xml.map((one) =>
        textAt(
          rootOf(one, namespace),
          "mainCarriageTransportMovement/dangerousGoodsIndicator",
        ),
      );
    const common = consignments.map((c) => consignmentXml(c.root));
    const identifiers = consignments.map((c) => identifierXml(c.root));
    expect(await schemaErrors("consignment-common", common)).toEqual([]);
    expect(await schemaErrors("consignment-identifier", identifiers)).toEqual(
      [],
    );
    expect(indicators(common, COMMON_NAMESPACE)).toEqual([
      "true",
      "false",
      "false",
    ]);
    expect(indicators(identifiers, IDENTIFIER_NAMESPACE)).toEqual([
      "true",
      "false",
      "false",
    ]);
  });

  it("writes a national tax id with its country as scheme, and the EU VAT form only for an id written as a VAT number", async () => {
    const body = fullRequest();
    const taxIds = async (
      shipper: [country: string, id: string],
      carrier: [country: string, id: string],
    ) => {
      body.shipper = {
        ...body.shipper,
        tax_country: shipper[0],
        tax_id: shipper[1],
      };
      body.carrier = {
        ...body.carrier,
        tax_country: carrier[0],
        tax_id: carrier[1],
      };
      const { root } = await single(storedDocument(body));
      return [taxIdAt(root, "consignor"), taxIdAt(root, "carrier")];
    };
    // A NIF is a national id: not every one is registered for intra-EU VAT.
    expect(await taxIds(["ES", "B12345674"], ["DE", "123456789"])).toEqual([
      { id: "B12345674", scheme: "ES" },
      { id: "123456789", scheme: "DE" },
    ]);
    // An id that begins with its country's VAT prefix is a VAT number:
    // Greece's prefix is EL, not GR.
    expect(await taxIds(["GR", "EL123456789"], ["RO", "ro 123-456"])).toEqual([
      { id: "EL123456789", scheme: null },
      { id: "RO123456", scheme: null },
    ]);
    expect(await taxIds(["GR", "GR123456789"], ["GR", "123456789"])).toEqual([
      { id: "GR123456789", scheme: "GR" },
      { id: "123456789", scheme: "GR" },
    ]);
    // Only the country's own prefix counts; a country outside the EU has none.
    expect(await taxIds(["RO", "DE123456"], ["GB", "GB123456789"])).toEqual([
      { id: "DE123456", scheme: "RO" },
      { id: "GB123456789", scheme: "GB" },
    ]);
    // At the longest (32 characters), the id is written whole.
    expect(
      await taxIds(["RO", `RO${"1".repeat(30)}`], ["DE", "D".repeat(32)]),
    ).toEqual([
      { id: `RO${"1".repeat(30)}`, scheme: null },
      { id: "D".repeat(32), scheme: "DE" },
    ]);
  });

  it("writes when the document was issued, in ES01 too", async () => {
    const { consignment } = await single(storedDocument(minimalRequest()));
    const es01 = consignmentXml(subsetOf(consignment.root, ["ES01"]));
    expect(await schemaErrors("consignment-common", [es01])).toEqual([]);
    expect(textsAt(rootOf(es01, COMMON_NAMESPACE), "information")).toContain(
      "Issued at: 2026-11-21T07:30:00.000Z",
    );
  });

  it("names, on a rectified version, the document that corrected it and when, in ES01 and the full export", async () => {
    const correctedAt = ISSUED_AT + 45 * 60_000;
    const correction = newDocumentUuid(7, correctedAt);
    const { consignment, root } = await single(
      storedDocument(fullRequest(), { rectifiedByUuid: correction }),
    );
    const line = `Rectified by DeCA document: ${correction}, at 2026-11-21T08:15:00.000Z`;
    expect(textsAt(root, "information")).toEqual([
      `DeCA document: ${DOCUMENT_UUID}`,
      "Issued at: 2026-11-21T07:30:00.000Z",
      "DeCA reference: PED-2026-0001",
      line,
      "Special authorization: AUT-77/2026, issued by DGT",
      "Observations: Entregar antes de las 14:00. Carga frágil.",
    ]);
    const es01 = consignmentXml(subsetOf(consignment.root, ["ES01"]));
    expect(await schemaErrors("consignment-common", [es01])).toEqual([]);
    expect(textsAt(rootOf(es01, COMMON_NAMESPACE), "information")).toContain(
      line,
    );
    // A correcting document issued before sharding carries no time: its uuid only.
    const older = "7c0e9a51-2b3d-4e6f-8a9b-0c1d2e3f4a5b";
    const { root: beforeSharding } = await single(
      storedDocument(fullRequest(), { rectifiedByUuid: older }),
    );
    expect(textsAt(beforeSharding, "information")).toContain(
      `Rectified by DeCA document: ${older}`,
    );
  });

  it("says in ES01, which has no dangerous goods indicator, that the goods are declared dangerous", async () => {
    const body = minimalRequest();
    body.goods.dangerous_goods = true;
    const es01 = async (request: typeof body) => {
      const { consignment } = await single(storedDocument(request));
      const xml = consignmentXml(subsetOf(consignment.root, ["ES01"]));
      expect(await schemaErrors("consignment-common", [xml])).toEqual([]);
      return textsAt(rootOf(xml, COMMON_NAMESPACE), "information");
    };
    expect(await es01(body)).toContain("Dangerous goods: yes");
    body.goods.dangerous_goods = false;
    expect((await es01(body)).join("\n")).not.toContain("Dangerous goods");
  });

  it("writes the trailer's kind the request states: a semi-trailer SM, a trailer or no kind TE", async () => {
    const categories = async (kind?: string | null) => {
      const body = fullRequest();
      if (kind !== undefined) body.vehicle.trailer_kind = kind;
      const { root } = await single(storedDocument(body));
      return textAt(root, "usedTransportEquipment/categoryCode");
    };
    expect(await categories("semi_trailer")).toBe("SM");
    expect(await categories("trailer")).toBe("TE");
    expect(await categories(null)).toBe("TE");
    expect(await categories()).toBe("TE");
  });
});

describe("a grouped document", () => {
  let consignments: Consignment[];
  let roots: ReturnType<typeof rootOf>[];
  beforeAll(async () => {
    ({ consignments, roots } = await exported(
      storedDocument(groupedRequest(100)),
    ));
  });

  it("is one valid consignment per shipment, in order, each with its own dataset id", () => {
    expect(consignments.map((c) => c.shipmentNumber)).toEqual(
      Array.from({ length: 100 }, (_, index) => index + 1),
    );
    expect(new Set(consignments.map((c) => c.datasetId)).size).toBe(100);
    roots.forEach((root, index) => {
      expect(textAt(root, "consigneeReceiptLocation/name")).toBe(
        `Tienda ${index + 1}`,
      );
      expect(textAt(root, "consignor/name")).toBe("Cargas Ejemplo SL");
      expect(textsAt(root, "information")[0]).toBe(
        `DeCA document: ${DOCUMENT_UUID}, shipment ${index + 1} of 100`,
      );
    });
  });

  it("builds one shipment's consignment by its dataset id as the whole export does (what the API serves)", async () => {
    const document = storedDocument(groupedRequest(100));
    expect(await datasetsOf(document)).toEqual(
      consignments.map(({ datasetId, shipmentNumber }) => ({
        datasetId,
        shipmentNumber,
      })),
    );
    const served = [];
    for (const index of [0, 1, 2, 99]) {
      const expected = at(consignments, index);
      const found = await consignmentWithId(document, expected.datasetId);
      expect(found).toEqual(expected);
      served.push(consignmentXml((found as Consignment).root));
    }
    expect(await schemaErrors("consignment-common", served)).toEqual([]);
    expect(
      await consignmentWithId(document, await datasetId(DOCUMENT_UUID, 101)),
    ).toBeUndefined();
  });

  it("gives each shipment its weight or its measure", () => {
    expect(textAt(at(roots, 0), "grossWeight")).toBe("1");
    expect(elementsAt(at(roots, 2), "grossWeight")).toHaveLength(0);
    expect(textsAt(at(roots, 2), "information")).toContain(
      "Alternative measure: 3 palés",
    );
  });
});

/** Every text at its longest, tax ids of 32, plates of 20, the largest weight. */
const longestBody = () => ({
  ...structuredClone(LONGEST_DOCUMENT),
  shipper: { ...LONGEST_DOCUMENT.shipper, tax_id: "7".repeat(32) },
  carrier: { ...LONGEST_DOCUMENT.carrier, tax_id: "R".repeat(32) },
  goods: { ...LONGEST_DOCUMENT.goods, weight_kg: "999999999999999.999999" },
  vehicle: {
    country: "PL",
    registration: "W".repeat(20),
    trailer_country: "PL",
    trailer_registration: "T".repeat(20),
  },
});

describe("every field at its longest", () => {
  it("stays valid, and every value can be read back whole", async () => {
    const body = longestBody();
    const { root } = await single(storedDocument(body));
    const whole = (path: string) => textsAt(root, path).join("");
    expect(whole("consignor/name")).toBe(body.shipper.name);
    expect(textsAt(root, "consignor/name")).toHaveLength(Math.ceil(255 / 35));
    expect(whole("carrier/postalAddress/streetName")).toBe(
      body.carrier.address?.street,
    );
    expect(whole("carrier/postalAddress/postcode")).toBe(
      body.carrier.address?.postal_code,
    );
    expect(whole("carrierAcceptanceLocation/name")).toBe(body.origin.place);
    expect(whole("consigneeReceiptLocation/postalAddress/cityName")).toBe(
      body.destination.city,
    );
    expect(whole("natureIdentificationCargo/identificationText")).toBe(
      body.goods.description,
    );
    expect(taxIdAt(root, "consignor")).toEqual({
      id: "7".repeat(32),
      scheme: "PL",
    });
    // Plates longer than the element's 17: cut, and kept whole as information.
    expect(
      textAt(root, "mainCarriageTransportMovement/usedTransportMeans/id"),
    ).toBe("W".repeat(17));
    expect(textAt(root, "usedTransportEquipment/id")).toBe("T".repeat(17));
    const information = textsAt(root, "information");
    expect(information).toContain(
      `Vehicle registration (whole): ${"W".repeat(20)}`,
    );
    expect(information).toContain(
      `Trailer registration (whole): ${"T".repeat(20)}`,
    );
    // 21 digits rounded to the 16 a measure holds, exact as information.
    expect(textAt(root, "grossWeight")).toBe("1000000000000000");
    expect(information).toContain(
      "Gross weight (exact): 999999999999999.999999 kg",
    );
    // Observations in numbered parts that give them back whole.
    const parts = information.filter((line) =>
      line.startsWith("Observations ("),
    );
    expect(parts.length).toBeGreaterThan(1);
    expect(
      parts
        .map((line) => line.replace(/^Observations \(\d+\/\d+\): /, ""))
        .join(""),
    ).toBe(body.observations);
    expect(information.every((line) => [...line].length <= 256)).toBe(true);
  });
});

describe("texts in every script", () => {
  it("keeps Latin, Greek, Cyrillic, Arabic, Hebrew, CJK, Hangul, emoji and XML's own characters", async () => {
    const body = fullRequest();
    body.shipper.name = "Cerámicas 株式会社 & <Søn> \"Ελλάδα\" 'Москва'";
    body.carrier.name = "한국어 상품 ™ № ✓ → 😀 👍🏽 🇪🇸 👨‍👩‍👧";
    body.goods.description =
      "ひらがな カタカナ 精密仪器零件 مرحبا ٣ שלום ]]> &amp;";
    body.observations = "Línea 1\r\nLínea 2\tcon tabulador\n\u200Fعربي 42";
    const { root } = await single(storedDocument(body));
    const whole = (path: string) => textsAt(root, path).join("");
    expect(whole("consignor/name")).toBe(body.shipper.name);
    expect(whole("carrier/name")).toBe(body.carrier.name);
    expect(whole("natureIdentificationCargo/identificationText")).toBe(
      body.goods.description,
    );
    expect(textsAt(root, "information")).toContain(
      `Observations: ${body.observations}`,
    );
  });
});

describe("subsets", () => {
  it("the ES01 subset is valid and holds only ES01's elements", async () => {
    const consignments = await consignmentsOf(storedDocument(fullRequest()));
    const xml = consignmentXml(subsetOf(at(consignments, 0).root, ["ES01"]));
    expect(await schemaErrors("consignment-common", [xml])).toEqual([]);
    const root = rootOf(xml, COMMON_NAMESPACE);
    expect(
      textAt(root, "mainCarriageTransportMovement/usedTransportMeans/typeCode"),
    ).toBe("31");
    expect(taxIdAt(root, "consignor")).toEqual({
      id: "B12345674",
      scheme: "ES",
    });
    expect(textAt(root, "usedTransportEquipment/categoryCode")).toBe("TE");
    // Not ES01's: the mode, the indicator, the trailer's sequence number.
    expect(
      elementsAt(root, "mainCarriageTransportMovement/modeCode"),
    ).toHaveLength(0);
    expect(
      elementsAt(root, "mainCarriageTransportMovement/dangerousGoodsIndicator"),
    ).toHaveLength(0);
    expect(
      elementsAt(root, "usedTransportEquipment/sequenceNumber"),
    ).toHaveLength(0);
  });

  it("the identifier document is valid against consignment-identifier.xsd", async () => {
    const consignments = await consignmentsOf(storedDocument(fullRequest()));
    const xml = identifierXml(at(consignments, 0).root);
    expect(await schemaErrors("consignment-identifier", [xml])).toEqual([]);
    // The identifier XSD is not the common one: the common one refuses it.
    expect(await schemaErrors("consignment-common", [xml])).not.toEqual([]);
    const root = rootOf(xml, IDENTIFIER_NAMESPACE);
    expect(textAt(root, "carrierAcceptanceDateTime")).toBe("20261121");
    expect(textAt(root, "mainCarriageTransportMovement/modeCode")).toBe("3");
    expect(
      textAt(root, "mainCarriageTransportMovement/usedTransportMeans/id"),
    ).toBe("1234BCD");
    expect(textAt(root, "usedTransportEquipment/id")).toBe("R1234BCD");
    expect(elementsAt(root, "consignor")).toHaveLength(0);
  });

  it("the identifier document of a deleted consignment (nothing identifying) is valid", async () => {
    const withdrawn = withdrawnIdentifierXml();
    expect(withdrawn).not.toContain("<id>");
    expect(await schemaErrors("consignment-identifier", [withdrawn])).toEqual(
      [],
    );
  });

  it("a country the code list lacks is information, and the identifier document stays valid", async () => {
    const body = minimalRequest();
    body.vehicle = { country: "XK", registration: "01ABC123" };
    const consignments = await consignmentsOf(storedDocument(body));
    const xml = consignmentXml(at(consignments, 0).root);
    expect(await schemaErrors("consignment-common", [xml])).toEqual([]);
    const root = rootOf(xml, COMMON_NAMESPACE);
    expect(
      elementsAt(
        root,
        "mainCarriageTransportMovement/usedTransportMeans/registrationCountry",
      ),
    ).toHaveLength(0);
    expect(textsAt(root, "information")).toContain("Vehicle country: XK");
    const identifier = identifierXml(at(consignments, 0).root);
    expect(await schemaErrors("consignment-identifier", [identifier])).toEqual(
      [],
    );
  });
});
