// The messages of the events queue (wrangler.toml, `deca-events`). Each only
// points at rows in D1, which are the truth: a message that is lost, sent
// twice or read late changes nothing that the rows do not say.

export type EventMessage =
  /**
   * Relay these documents' events not yet relayed from their shard's outbox
   * to their credential's home shard, and deliver them.
   */
  | { kind: "outbox"; documentUuids: string[] }
  /**
   * Send these documents' eFTI registrations not yet sent to the gate (the
   * identifier document of each dataset, as the document now is).
   */
  | { kind: "efti_registration"; documentUuids: string[] }
  /** Attempt one delivery of an event to one endpoint, if it is still due. */
  | {
      kind: "delivery";
      eventId: string;
      endpointId: string;
      credentialId: string;
    };
