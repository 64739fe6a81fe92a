import { describe, expect, it } from "vitest";
import {
  fullRequest,
  groupedRequest,
  minimalRequest,
} from "../../fixtures/requests";
import { consignmentsOf } from "../../src/domain/efti/consignment";
import { SUBSET_IDS } from "../../src/domain/efti/schema-facts.generated";
import { consignmentXml, subsetOf } from "../../src/domain/efti/subsets";
import { newDocumentUuid } from "../../src/domain/shard-routing";
import { ISSUED_AT, storedDocument } from "./documents";
import { schemaErrors } from "./validate";

describe("what a gate is answered: a consignment reduced to the subsets asked", () => {
  it("is valid against consignment-common.xsd for each subset, and for all of them", async () => {
    const documents = [
      storedDocument(minimalRequest()),
      storedDocument(fullRequest()),
      storedDocument(groupedRequest(3)),
      // A semi-trailer, dangerous goods, a rectified version.
      storedDocument(
        (() => {
          const body = fullRequest();
          body.vehicle.trailer_kind = "semi_trailer";
          body.goods.dangerous_goods = true;
          return body;
        })(),
        { rectifiedByUuid: newDocumentUuid(7, ISSUED_AT + 60_000) },
      ),
    ];
    const xml: string[] = [];
    for (const document of documents) {
      for (const { root } of await consignmentsOf(document)) {
        for (const subset of SUBSET_IDS) {
          xml.push(consignmentXml(subsetOf(root, [subset])));
        }
        xml.push(consignmentXml(subsetOf(root, SUBSET_IDS)));
      }
    }
    expect(await schemaErrors("consignment-common", xml)).toEqual([]);
  });
});
