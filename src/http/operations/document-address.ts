import { referencePath, uuidPath } from "../../schemas/document-address";
import type { Operation } from "../operation";

/** Where a document is named: by its uuid or by its own reference. */
export interface Address {
  path: string;
  params: typeof uuidPath | typeof referencePath;
  operationId: (name: string) => string;
}

/**
 * References first: a uuid is never "ref", while a reference may be "pdf",
 * "status" or "qr", which the uuid routes would otherwise take.
 */
const ADDRESSES: Address[] = [
  {
    path: "/api/v1/documents/ref/{reference}",
    params: referencePath,
    operationId: (name) => `${name}ByReference`,
  },
  {
    path: "/api/v1/documents/{uuid}",
    params: uuidPath,
    operationId: (name) => name,
  },
];

/**
 * docs/api.md: every operation on one document answers at its uuid and at
 * its reference, so each is defined once for an address and served at both,
 * every reference route before the uuid ones.
 */
export const atEveryAddress = (
  operations: readonly ((address: Address) => Operation)[],
): Operation[] =>
  ADDRESSES.flatMap((address) =>
    operations.map((operation) => operation(address)),
  );
