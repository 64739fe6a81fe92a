import { DomainError } from "../../errors";

/** The reference is held by another document, or by a request still issuing one. */
export const referenceConflict = (): DomainError =>
  new DomainError("REFERENCE_CONFLICT", { field: "reference" });
