import type { Operation } from "../operation";
import { demoDocumentByQrOperation } from "./demo-document-by-qr";
import { documentByQrOperation } from "./document-by-qr";

/**
 * The QR links, the operations the edge Worker serves itself (docs/scale.md
 * "Placement"); its bundle imports this list, not the API's.
 */
export const QR_LINK_OPERATIONS: readonly Operation[] = [
  documentByQrOperation,
  demoDocumentByQrOperation,
];
