import { listEftiDatasets } from "../../domain/documents/efti-datasets";
import { READ_WINDOW_HOURS } from "../../domain/windows";
import { BEARER } from "../../openapi/security";
import { EXAMPLE_UUID } from "../../schemas/document-result-example";
import { eftiDatasetListSchema } from "../../schemas/efti-dataset";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import type { Address } from "./document-address";
import { DOCUMENT_TAGS, READ_CODES, READ_ERRORS } from "./document-answers";

/** The datasets of the example grouped document's three shipments. */
const EXAMPLE_DATASET_IDS = [
  "be109dfd-a0fc-8ecd-81e1-2015fd02f7a8",
  "ce607c77-908e-8ecc-8903-7efae0e3a58b",
  "9526a5ab-5078-8a09-9659-deb71d6fc93c",
];

const exampleDatasets = (count: number) => ({
  data: EXAMPLE_DATASET_IDS.slice(0, count).map((datasetId, index) => ({
    shipment: index + 1,
    dataset_id: datasetId,
    url: `https://deca.example/api/v1/documents/${EXAMPLE_UUID}/efti/${datasetId}`,
  })),
});

export const documentEftiDatasetsOperation = ({
  path,
  params,
  operationId,
}: Address) =>
  defineOperation({
    method: "get",
    path: `${path}/efti`,
    params,
    middleware: [requireCredential],
    handle: async (c, input) =>
      c.json(
        await listEftiDatasets(c.var.services, c.var.credential, input.params),
      ),
    doc: {
      operationId: operationId("listDocumentEftiDatasets"),
      summary: "The document as eFTI data: one dataset per shipment",
      description: `The document's eFTI consignments (Regulation (EU) 2020/1056, the common data set): one per shipment, a grouped document one for each of its shipments, in their order. Each has its dataset id, a UUID that never changes, and the URL of its XML. Under the rules of the document's GET: this key's document, within ${READ_WINDOW_HOURS} hours of its creation, not deleted; otherwise the same 404.`,
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        200: {
          description: "The datasets, in the order of the shipments.",
          content: {
            "application/json": {
              schema: eftiDatasetListSchema,
              examples: {
                document: {
                  summary: "A single-shipment document",
                  value: exampleDatasets(1),
                },
                grouped: {
                  summary: "A grouped document of three shipments",
                  value: exampleDatasets(3),
                },
              },
            },
          },
        },
        ...errorResponses(READ_ERRORS, { codes: READ_CODES }),
      },
    },
  });
