import type { DocumentRow } from "../../db/schema";
import type { DocumentData, Metadata } from "../../schemas/document-request";
import type { Services } from "../services";

/** A version's stored body: from its row while hot, from R2 once archived. */
async function storedBody(
  services: Pick<Services, "archives">,
  row: DocumentRow,
): Promise<{ data: string; metadata: string | null }> {
  if (row.data !== null) return { data: row.data, metadata: row.metadata };
  const archived = await services.archives.get(row.uuid);
  if (!archived) {
    throw new Error(`archived body of document ${row.uuid} is missing`);
  }
  return archived;
}

/** The transport data of a version (a correction shows what it changes). */
export const documentData = async (
  services: Pick<Services, "archives">,
  row: DocumentRow,
): Promise<DocumentData> =>
  JSON.parse((await storedBody(services, row)).data) as DocumentData;

/** The data and metadata of a version, as the result shows them. */
export async function documentBody(
  services: Pick<Services, "archives">,
  row: DocumentRow,
): Promise<{ data: DocumentData; metadata: Metadata | null }> {
  const body = await storedBody(services, row);
  return {
    data: JSON.parse(body.data) as DocumentData,
    metadata:
      body.metadata === null ? null : (JSON.parse(body.metadata) as Metadata),
  };
}
