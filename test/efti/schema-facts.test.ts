import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { fullRequest, groupedRequest } from "../../fixtures/requests";
import {
  GENERATED_FILE,
  schemaFactsSource,
} from "../../scripts/lib/efti-schema-facts";
import { consignmentsOf } from "../../src/domain/efti/consignment";
import { factsOf } from "../../src/domain/efti/fit";
import type { XmlElement } from "../../src/domain/efti/xml";
import { storedDocument } from "./documents";

const pathsOf = (element: XmlElement, prefix = ""): string[] =>
  (element.children ?? []).flatMap((child) => [
    `${prefix}${child.name}`,
    ...pathsOf(child, `${prefix}${child.name}/`),
  ]);

describe("the schema facts", () => {
  it("checked in are what the vendored XSD says (npm run efti:facts rewrites them)", async () => {
    expect(await readFile(GENERATED_FILE, "utf8")).toBe(
      await schemaFactsSource(),
    );
  });

  it("read ES01's statuses from the XSD", () => {
    expect(factsOf("consignor/taxRegistration/id")).toMatchObject({
      efti: "eFTI859",
      maxLength: 35,
      subsets: { ES01: "M" },
    });
    expect(factsOf("consignor/name")).toMatchObject({
      maxLength: 35,
      repeats: true,
    });
    expect(
      factsOf("mainCarriageTransportMovement/modeCode").subsets.ES01,
    ).toBeUndefined();
  });

  it("name every element the export writes", async () => {
    // Both shapes: every optional datum given, and a grouped route.
    for (const body of [fullRequest(), groupedRequest(3)]) {
      for (const consignment of await consignmentsOf(storedDocument(body))) {
        for (const path of pathsOf(consignment.root)) {
          expect(() => factsOf(path), path).not.toThrow();
        }
      }
    }
  });
});
