import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { eventSchema } from "../../../src/schemas/event";
import { createCredential } from "../../helpers/credentials";
import { documentsApi, qrPath, sha256Of } from "../../helpers/documents-api";
import { qrAccessTimes, rowsOfAllShards } from "../../helpers/shards";
import { insertEndpoint, webhookWorld } from "../../helpers/webhooks";

// A document's QR link scanned again and again (an inspector reloading it,
// inspectors sharing a network, anyone holding the paper): every scan is
// served, the first access is recorded as ever, and later ones are written
// and sent at most once a minute per document.

const NOW = Date.UTC(2026, 10, 21, 6);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
// Past the deletion window (2 h) and its margin (1 h): src/domain/windows.ts.
const SETTLED = NOW + 3 * HOUR;

/** A credential with one endpoint for document.accessed, and one of its documents. */
async function scannedDocument(now: number) {
  const world = webhookWorld(now);
  const owner = await createCredential();
  await insertEndpoint(owner.id, {
    eventTypes: ["document.accessed"],
    createdAt: now,
  });
  const document = await documentsApi(world.request(), owner.key).issue(
    minimalRequest(),
  );
  await world.consumeDue();
  const scan = async () => {
    const response = await world.request()(qrPath(document.url));
    expect(response.status).toBe(200);
    expect(await sha256Of(await response.arrayBuffer())).toBe(
      document.pdf.sha256,
    );
  };
  /** The document.accessed events its endpoint received: when, and whether first. */
  const received = () =>
    world.receiver.received.map((delivery) => {
      const event = eventSchema.parse(JSON.parse(delivery.body));
      if (event.type !== "document.accessed") throw new Error(event.type);
      return [Date.parse(event.data.accessed_at), event.data.first];
    });
  return { world, owner, document, scan, received };
}

/** A document's document.accessed events in its outbox. */
const outboxAccesses = (uuid: string) =>
  rowsOfAllShards(
    "SELECT created_at, first_access FROM event_outbox WHERE document_uuid = ? AND type = 'document.accessed' ORDER BY created_at",
    uuid,
  );

describe("a QR link scanned again and again", () => {
  it("within the deletion window: 40 scans in 4 seconds make one event, one message and one POST; one more a minute after the last one sent", async () => {
    const { world, document, scan, received } = await scannedDocument(NOW);
    for (let i = 0; i < 40; i++) {
      await scan();
      world.clock.advance(100);
    }
    expect(world.queue.waiting).toHaveLength(1);
    await world.consumeDue();
    expect(received()).toEqual([[NOW, true]]);

    // 59.9 s after the recorded access: still within its minute.
    world.clock.set(NOW + MINUTE - 100);
    await scan();
    world.clock.set(NOW + MINUTE);
    await scan();
    await scan();
    world.clock.advance(30 * SECOND);
    await scan();
    await world.consumeDue();
    expect(received()).toEqual([
      [NOW, true],
      [NOW + MINUTE, false],
    ]);
    expect(await qrAccessTimes(document.uuid)).toEqual([NOW, NOW + MINUTE]);
    expect(await outboxAccesses(document.uuid)).toEqual([
      { created_at: NOW, first_access: 1 },
      { created_at: NOW + MINUTE, first_access: 0 },
    ]);
  });

  it("scans at the same instant write one access, the first", async () => {
    const { world, document, received } = await scannedDocument(NOW);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => world.request()(qrPath(document.url))),
    );
    expect(responses.map((response) => response.status)).toEqual(
      Array(8).fill(200),
    );
    world.clock.advance(MINUTE);
    await Promise.all(
      Array.from({ length: 8 }, () => world.request()(qrPath(document.url))),
    );
    await world.consumeDue();
    expect(received()).toEqual([
      [NOW, true],
      [NOW + MINUTE, false],
    ]);
    expect(await qrAccessTimes(document.uuid)).toEqual([NOW, NOW + MINUTE]);
  });

  it("past the window, as within it: a scan within a minute of the last recorded access is not written, whichever Worker served it", async () => {
    const { world, document, scan, received } = await scannedDocument(NOW);
    world.clock.set(SETTLED - 1);
    await scan();
    // Served past the window, from the PDF object: no Worker instance
    // remembers the access D1 recorded.
    world.clock.set(SETTLED);
    await scan();
    world.clock.set(SETTLED - 1 + MINUTE);
    await scan();
    await world.consumeDue();
    expect(received()).toEqual([
      [SETTLED - 1, true],
      [SETTLED - 1 + MINUTE, false],
    ]);
    expect(await qrAccessTimes(document.uuid)).toEqual([
      SETTLED - 1,
      SETTLED - 1 + MINUTE,
    ]);
  });
});
