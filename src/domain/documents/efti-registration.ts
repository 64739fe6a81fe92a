// The write side of the eFTI gate's registrations (docs/efti.md
// "Registration with the gate"): which dataset ids a version's commit batch
// registers. None while no gate is configured (EFTI_GATE_URL empty, the
// default), and none for a test or demo document, which no gate ever sees.
import type { DocumentRow } from "../../db/schema";
import type { DocumentData } from "../../schemas/document-request";
import { type Environment, GATE_ENVIRONMENT } from "../../schemas/environment";
import { datasetsOf } from "../efti/consignment";
import type { Services } from "../services";
import { documentData } from "./document-body";

const registers = (
  services: Pick<Services, "eftiGate">,
  environment: Environment,
): boolean => services.eftiGate !== null && environment === GATE_ENVIRONMENT;

/** The dataset ids a new version's batch registers: each of its shipments', or none. */
export async function datasetIdsToRegister(
  services: Pick<Services, "eftiGate">,
  environment: Environment,
  version: { uuid: string; data: DocumentData },
): Promise<string[]> {
  if (!registers(services, environment)) return [];
  return (await datasetsOf(version)).map(({ datasetId }) => datasetId);
}

/** The dataset ids a deletion's batch registers (its identifiers withdrawn), or none. */
export async function datasetIdsOfStored(
  services: Pick<Services, "eftiGate" | "archives">,
  row: DocumentRow,
): Promise<string[]> {
  if (!registers(services, row.environment)) return [];
  return datasetIdsToRegister(services, row.environment, {
    uuid: row.uuid,
    data: await documentData(services, row),
  });
}

/** The documents whose registrations an announcement names: none while no gate is configured or of another environment. */
export const registeredDocuments = (
  services: Pick<Services, "eftiGate">,
  environment: Environment,
  uuids: readonly string[],
): string[] => (registers(services, environment) ? [...uuids] : []);
