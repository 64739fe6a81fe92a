// The part of an R2 bucket that the archive and PDF stores use (put, with
// "only where no object is"; get; delete), in memory, so that the service's
// own stores (src/storage) seal and keep objects in Node and the simulation
// can weigh what R2 would hold.
export class MemoryBucket {
  private readonly objects = new Map<string, Uint8Array>();

  async put(
    key: string,
    value: Uint8Array,
    options?: { onlyIf?: { etagDoesNotMatch?: string } },
  ): Promise<{ key: string; size: number } | null> {
    if (options?.onlyIf?.etagDoesNotMatch === "*" && this.objects.has(key)) {
      return null;
    }
    this.objects.set(key, value);
    return { key, size: value.byteLength };
  }

  async get(key: string) {
    const value = this.objects.get(key);
    return value && { arrayBuffer: async () => value.slice().buffer };
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }

  /** Sizes of the objects whose key starts with `prefix`. */
  sizes(prefix: string): number[] {
    return [...this.objects]
      .filter(([key]) => key.startsWith(prefix))
      .map(([, value]) => value.byteLength);
  }

  /** As the stores take it. */
  asR2(): R2Bucket {
    return this as unknown as R2Bucket;
  }
}
