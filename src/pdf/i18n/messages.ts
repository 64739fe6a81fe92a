/** Every label a control document prints, in the order they appear. */
export const MESSAGE_KEYS = [
  "title",
  "notValid",
  "page",
  "documentId",
  "reference",
  "issuedAt",
  "peninsularTime",
  "canaryTime",
  "transportDate",
  "rectifies",
  "changeOfVehicle",
  "changes",
  "noChanges",
  "qrCaption",
  "shipper",
  "carrier",
  "name",
  "taxId",
  "registeredAddress",
  "origin",
  "destination",
  "place",
  "address",
  "goods",
  "description",
  "weight",
  "alternativeMeasure",
  "vehicle",
  "vehicleRegistration",
  "trailerRegistration",
  "specialAuthorization",
  "authorizationNumber",
  "authorizationIssuer",
  "observations",
  "legalBasis",
] as const;

export type MessageKey = (typeof MESSAGE_KEYS)[number];

/** A locale's catalog: leaving out a key (or adding an unknown one) does not compile. */
export type Messages = Readonly<Record<MessageKey, string>>;
