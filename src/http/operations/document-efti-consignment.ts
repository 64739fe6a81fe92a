import { eftiConsignmentXml } from "../../domain/documents/efti-datasets";
import { READ_WINDOW_HOURS } from "../../domain/windows";
import { BEARER } from "../../openapi/security";
import { datasetIdPath } from "../../schemas/document-address";
import { errorResponses } from "../error-responses";
import { requireCredential } from "../middleware/authenticate";
import { defineOperation } from "../operation";
import type { Address } from "./document-address";
import { DOCUMENT_TAGS, READ_CODES, READ_ERRORS } from "./document-answers";

export const documentEftiConsignmentOperation = ({
  path,
  params,
  operationId,
}: Address) =>
  defineOperation({
    method: "get",
    path: `${path}/efti/{dataset_id}`,
    params: params.extend(datasetIdPath),
    middleware: [requireCredential],
    handle: async (c, { params: { dataset_id, ...address } }) =>
      c.body(
        await eftiConsignmentXml(
          c.var.services,
          c.var.credential,
          address,
          dataset_id,
        ),
        200,
        { "Content-Type": "application/xml; charset=utf-8" },
      ),
    doc: {
      operationId: operationId("getDocumentEftiConsignment"),
      summary: "One shipment of the document as an eFTI consignment (XML)",
      description: `The consignment of the dataset \`dataset_id\` (from the document's eFTI list) as XML of the eFTI common data set, valid against \`consignment-common.xsd\` (namespace \`http://efti.eu/v1/consignment/common\`, root \`consignment\`): every datum of the document that has an element (docs/efti.md). Under the rules of the document's GET: this key's document, within ${READ_WINDOW_HOURS} hours of its creation, not deleted; otherwise, and for a dataset id that is not the document's, the same 404.`,
      tags: DOCUMENT_TAGS,
      security: BEARER,
      responses: {
        200: {
          description: "The consignment, in UTF-8.",
          content: {
            "application/xml": {
              schema: { type: "string", contentMediaType: "application/xml" },
            },
          },
        },
        ...errorResponses(READ_ERRORS, { codes: READ_CODES }),
      },
    },
  });
