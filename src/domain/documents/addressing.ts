import {
  findDocumentByReference,
  findOwnDocumentByUuid,
} from "../../db/documents";
import type { DocumentRow } from "../../db/schema";
import type { Credential } from "../authenticate";
import type { DocumentServices } from "./services";

/** A document as a route names it: by its uuid or by its reference. */
export type DocumentAddress = { uuid: string } | { reference: string };

/**
 * The caller's own document at an address, whatever its state or age; another
 * credential's document is as absent as one that never existed. A reference
 * names only its own version, never a later correction.
 */
export async function findOwnDocument(
  services: Pick<DocumentServices, "db">,
  credential: Credential,
  address: DocumentAddress,
): Promise<DocumentRow | undefined> {
  if ("uuid" in address) {
    return findOwnDocumentByUuid(services.db, credential.id, address.uuid);
  }
  const row = await findDocumentByReference(
    services.db,
    credential,
    address.reference,
  );
  return row?.credentialId === credential.id ? row : undefined;
}
