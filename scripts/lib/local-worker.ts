// A Worker run by wrangler on a local state folder, on a free loopback port:
// the tools' way to reach the local state without `npm start`, and the
// deploy test's way to run two releases side by side on one state.

export interface LocalWorker {
  /** Its origin, such as http://127.0.0.1:40123. */
  origin: string;
  stop: () => Promise<void>;
}

/** Starts the Worker of the wrangler config `config` on the state in `persistTo`. */
export async function startLocalWorker(
  config: string,
  persistTo: string,
): Promise<LocalWorker> {
  // Loaded only here: wrangler takes seconds to import.
  const { unstable_startWorker } = await import("wrangler");
  // Local runs need nothing from Cloudflare's network.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const worker = await unstable_startWorker({
    config,
    dev: {
      persist: persistTo,
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      watch: false,
      logLevel: "error",
    },
  } as Parameters<typeof unstable_startWorker>[0]);
  try {
    await worker.ready;
    return {
      origin: (await worker.url).origin,
      stop: () => worker.dispose(),
    };
  } catch (error) {
    await worker.dispose();
    throw error;
  }
}
