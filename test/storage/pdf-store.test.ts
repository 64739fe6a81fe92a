import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PdfObjectMetadata } from "../../src/storage/pdf-object-metadata";
import { createPdfStore } from "../../src/storage/pdf-store";
import { keyringOf, newKey } from "./keyrings";

const encoder = new TextEncoder();
const V1 = newKey();
const V2 = newKey();
const store = createPdfStore(env.PDFS, keyringOf({ v1: V1 }));

// Header of an object stored under version "v1" (see pdf-envelope.ts):
// magic 4, format 1, version length 1, "v1" 2, wrapped key 40, IV 12.
const V1_HEADER_BYTES = 60;
const KEY_VERSION_OFFSET = 6;

const METADATA: PdfObjectMetadata = {
  environment: "test",
  createdAt: Date.UTC(2026, 10, 21, 5),
  expiresAt: null,
  qrKeyVersion: "v1",
  deletionRequestedAt: null,
  deletedAt: null,
};

const SAMPLE_PDF = encoder.encode(
  `%PDF-1.7\n1 0 obj << /Title (Documento de control) >> endobj\n${"BT /F1 12 Tf (Transportes Ejemplo SL) Tj ET\n".repeat(40)}%%EOF\n`,
);

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  // getRandomValues fills at most 64 KiB at a time.
  for (let offset = 0; offset < length; offset += 65536) {
    crypto.getRandomValues(bytes.subarray(offset, offset + 65536));
  }
  return bytes;
}

async function storedBytes(objectKey: string): Promise<Uint8Array> {
  const object = await env.PDFS.get(objectKey);
  if (!object) throw new Error(`no object ${objectKey}`);
  return new Uint8Array(await object.arrayBuffer());
}

const contains = (haystack: Uint8Array, needle: Uint8Array): boolean =>
  haystack.some((_, start) =>
    needle.every((byte, index) => haystack[start + index] === byte),
  );

const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

describe("encrypted PDF store", () => {
  it("does not store the plaintext", async () => {
    await store.put("pdfs/plain.pdf", SAMPLE_PDF, METADATA);
    const stored = await storedBytes("pdfs/plain.pdf");
    expect(stored.length).toBeGreaterThan(SAMPLE_PDF.length);
    for (const chunk of ["%PDF", "%%EOF", "Transportes", "Documento"]) {
      expect(contains(stored, encoder.encode(chunk))).toBe(false);
    }
  });

  it.each([
    ["a PDF", SAMPLE_PDF],
    ["an empty input", new Uint8Array()],
    ["a 1-byte input", Uint8Array.of(0x25)],
    ["a 5 MB input", randomBytes(5 * 1024 * 1024)],
  ])("returns exactly the bytes put for %s", async (_, pdf) => {
    await store.put("pdfs/round-trip.pdf", pdf, METADATA);
    const read = await store.get("pdfs/round-trip.pdf");
    expect(read).not.toBeNull();
    expect(read?.length).toBe(pdf.length);
    expect(read?.every((byte, index) => byte === pdf[index])).toBe(true);
  });

  it("encrypts the same PDF differently each time", async () => {
    await store.put("pdfs/once.pdf", SAMPLE_PDF, METADATA);
    await store.put("pdfs/twice.pdf", SAMPLE_PDF, METADATA);
    const once = await storedBytes("pdfs/once.pdf");
    const twice = await storedBytes("pdfs/twice.pdf");
    // Same header prefix (magic, format, version), different wrapped key onward.
    expect(latin1(once.subarray(0, 8))).toBe(latin1(twice.subarray(0, 8)));
    expect(latin1(once.subarray(8))).not.toBe(latin1(twice.subarray(8)));
  });

  it("returns null for a missing object", async () => {
    expect(await store.get("pdfs/never-stored.pdf")).toBeNull();
  });

  it("deletes", async () => {
    await store.put("pdfs/deleted.pdf", SAMPLE_PDF, METADATA);
    await store.delete("pdfs/deleted.pdf");
    expect(await store.get("pdfs/deleted.pdf")).toBeNull();
    expect(await env.PDFS.head("pdfs/deleted.pdf")).toBeNull();
  });

  it("rejects a flipped byte anywhere in the object", async () => {
    const pdf = encoder.encode("%PDF-1.7 short");
    await store.put("pdfs/original.pdf", pdf, METADATA);
    const stored = await storedBytes("pdfs/original.pdf");
    for (let offset = 0; offset < stored.length; offset++) {
      const tampered = stored.slice();
      tampered[offset] = (tampered[offset] ?? 0) ^ 0x01;
      await env.PDFS.put("pdfs/tampered.pdf", tampered);
      await expect(
        store.get("pdfs/tampered.pdf"),
        `byte ${offset}`,
      ).rejects.toThrow(/^stored PDF "pdfs\/tampered\.pdf" /);
    }
  });

  it("rejects a flipped byte in the body of a large object", async () => {
    await store.put("pdfs/large.pdf", randomBytes(1024 * 1024), METADATA);
    const stored = await storedBytes("pdfs/large.pdf");
    const middle = stored.length >> 1;
    stored[middle] = (stored[middle] ?? 0) ^ 0x80;
    await env.PDFS.put("pdfs/large.pdf", stored);
    await expect(store.get("pdfs/large.pdf")).rejects.toThrow(
      'stored PDF "pdfs/large.pdf" failed authentication',
    );
  });

  it("rejects a truncated or foreign object", async () => {
    await store.put("pdfs/whole.pdf", SAMPLE_PDF, METADATA);
    const stored = await storedBytes("pdfs/whole.pdf");
    const cases: [Uint8Array, string][] = [
      [stored.subarray(0, stored.length - 1), "failed authentication"],
      [stored.subarray(0, V1_HEADER_BYTES), "failed authentication"],
      [stored.subarray(0, V1_HEADER_BYTES - 1), "is truncated"],
      [stored.subarray(0, 3), "is not in the encrypted format"],
      [new Uint8Array(), "is not in the encrypted format"],
      [SAMPLE_PDF, "is not in the encrypted format"],
    ];
    for (const [bytes, message] of cases) {
      await env.PDFS.put("pdfs/broken.pdf", bytes);
      await expect(store.get("pdfs/broken.pdf")).rejects.toThrow(message);
    }
  });

  it("rejects an unknown format version", async () => {
    await store.put("pdfs/format.pdf", SAMPLE_PDF, METADATA);
    const stored = await storedBytes("pdfs/format.pdf");
    stored[4] = 2;
    await env.PDFS.put("pdfs/format.pdf", stored);
    await expect(store.get("pdfs/format.pdf")).rejects.toThrow(
      'stored PDF "pdfs/format.pdf" has unknown format version 2',
    );
  });

  it("rejects an object copied to another key", async () => {
    await store.put("pdfs/a.pdf", SAMPLE_PDF, METADATA);
    await env.PDFS.put("pdfs/b.pdf", await storedBytes("pdfs/a.pdf"));
    await expect(store.get("pdfs/b.pdf")).rejects.toThrow(
      'stored PDF "pdfs/b.pdf" failed authentication',
    );
    expect(await store.get("pdfs/a.pdf")).toEqual(SAMPLE_PDF);
  });

  it("rejects headers swapped between objects", async () => {
    await store.put("pdfs/first.pdf", SAMPLE_PDF, METADATA);
    await store.put("pdfs/second.pdf", SAMPLE_PDF, METADATA);
    const first = await storedBytes("pdfs/first.pdf");
    const second = await storedBytes("pdfs/second.pdf");
    // Each object keeps its own body, with the other's wrapped key and IV.
    first.set(second.subarray(0, V1_HEADER_BYTES));
    await env.PDFS.put("pdfs/first.pdf", first);
    await expect(store.get("pdfs/first.pdf")).rejects.toThrow(
      "failed authentication",
    );
  });

  it("rejects an object read with another key of the same version", async () => {
    await store.put("pdfs/other-key.pdf", SAMPLE_PDF, METADATA);
    const other = createPdfStore(env.PDFS, keyringOf({ v1: newKey() }));
    await expect(other.get("pdfs/other-key.pdf")).rejects.toThrow(
      "failed authentication",
    );
  });

  describe("after a new current key version", () => {
    const rotated = createPdfStore(env.PDFS, keyringOf({ v1: V1, v2: V2 }));

    it("still opens what was stored under the old version", async () => {
      await store.put("pdfs/before-rotation.pdf", SAMPLE_PDF, METADATA);
      expect(await rotated.get("pdfs/before-rotation.pdf")).toEqual(SAMPLE_PDF);
    });

    it("stores under the new version", async () => {
      await rotated.put("pdfs/after-rotation.pdf", SAMPLE_PDF, METADATA);
      const stored = await storedBytes("pdfs/after-rotation.pdf");
      expect(
        latin1(stored.subarray(KEY_VERSION_OFFSET, KEY_VERSION_OFFSET + 2)),
      ).toBe("v2");
      expect(await rotated.get("pdfs/after-rotation.pdf")).toEqual(SAMPLE_PDF);
    });

    it("rejects a version the keyring lacks", async () => {
      await rotated.put("pdfs/newer.pdf", SAMPLE_PDF, METADATA);
      await expect(store.get("pdfs/newer.pdf")).rejects.toThrow(
        'stored PDF "pdfs/newer.pdf" is under key version "v2", which the keyring lacks',
      );
      await store.put("pdfs/older.pdf", SAMPLE_PDF, METADATA);
      const withoutV1 = createPdfStore(env.PDFS, keyringOf({ v2: V2 }));
      await expect(withoutV1.get("pdfs/older.pdf")).rejects.toThrow(
        'stored PDF "pdfs/older.pdf" is under key version "v1", which the keyring lacks',
      );
    });

    it("rejects an object relabelled with the other version", async () => {
      await store.put("pdfs/relabelled.pdf", SAMPLE_PDF, METADATA);
      const stored = await storedBytes("pdfs/relabelled.pdf");
      stored.set(encoder.encode("v2"), KEY_VERSION_OFFSET);
      await env.PDFS.put("pdfs/relabelled.pdf", stored);
      await expect(rotated.get("pdfs/relabelled.pdf")).rejects.toThrow(
        "failed authentication",
      );
    });
  });
});

describe("the PDF object's metadata", () => {
  it("is what was put, readable in the same read as the PDF", async () => {
    const demo = { ...METADATA, environment: "demo" as const, expiresAt: 7 };
    await store.put("pdfs/with-metadata.pdf", SAMPLE_PDF, demo);
    expect(await store.getWithMetadata("pdfs/with-metadata.pdf")).toEqual({
      bytes: SAMPLE_PDF,
      metadata: demo,
    });
    expect(
      (await env.PDFS.head("pdfs/with-metadata.pdf"))?.customMetadata,
    ).toEqual({
      environment: "demo",
      created_at: String(METADATA.createdAt),
      expires_at: "7",
      qr_key_version: "v1",
    });
  });

  it("says when the document was deleted, the stored bytes unchanged", async () => {
    await store.put("pdfs/noted.pdf", SAMPLE_PDF, METADATA);
    const before = await storedBytes("pdfs/noted.pdf");
    await store.noteDeletion("pdfs/noted.pdf", 1234);
    expect(await storedBytes("pdfs/noted.pdf")).toEqual(before);
    expect(await store.getWithMetadata("pdfs/noted.pdf")).toEqual({
      bytes: SAMPLE_PDF,
      metadata: { ...METADATA, deletedAt: 1234 },
    });
  });

  it("says first that a deletion was asked for, then when it committed, keeping the first request's time", async () => {
    await store.put("pdfs/requested.pdf", SAMPLE_PDF, METADATA);
    const before = await storedBytes("pdfs/requested.pdf");
    const stored = await store.read("pdfs/requested.pdf");
    if (!stored) throw new Error("no object");
    await store.noteDeletionRequested("pdfs/requested.pdf", stored, 1000);
    const again = await store.read("pdfs/requested.pdf");
    if (!again) throw new Error("no object");
    await store.noteDeletionRequested("pdfs/requested.pdf", again, 2000);
    expect(await store.getWithMetadata("pdfs/requested.pdf")).toEqual({
      bytes: SAMPLE_PDF,
      metadata: { ...METADATA, deletionRequestedAt: 1000 },
    });
    await store.noteDeletion("pdfs/requested.pdf", 1000);
    expect(await storedBytes("pdfs/requested.pdf")).toEqual(before);
    expect(
      (await store.getWithMetadata("pdfs/requested.pdf"))?.metadata,
    ).toEqual({ ...METADATA, deletionRequestedAt: 1000, deletedAt: 1000 });
  });

  it("is null for an object stored without it, or with it incomplete", async () => {
    await store.put("pdfs/old.pdf", SAMPLE_PDF, METADATA);
    const sealed = await storedBytes("pdfs/old.pdf");
    await env.PDFS.put("pdfs/old.pdf", sealed);
    expect(await store.getWithMetadata("pdfs/old.pdf")).toEqual({
      bytes: SAMPLE_PDF,
      metadata: null,
    });
    await store.noteDeletion("pdfs/old.pdf", 1234);
    expect((await store.getWithMetadata("pdfs/old.pdf"))?.metadata).toBeNull();
    await env.PDFS.put("pdfs/old.pdf", sealed, {
      customMetadata: { environment: "live", created_at: "soon" },
    });
    expect((await store.getWithMetadata("pdfs/old.pdf"))?.metadata).toBeNull();
  });

  it("notes nothing for a missing object", async () => {
    await store.noteDeletion("pdfs/never-stored.pdf", 1234);
    expect(await env.PDFS.head("pdfs/never-stored.pdf")).toBeNull();
    expect(await store.getWithMetadata("pdfs/never-stored.pdf")).toBeNull();
  });
});
