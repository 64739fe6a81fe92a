// `tsx --import ./bench/workers-runtime.ts`: what workerd gives the Worker
// and Node lacks, for `npm run bench:cpu`, which runs both Workers' apps in
// Node. `cloudflare:workers`, imported by the Durable Objects' modules, as a
// stand-in class: the app's modules define no object here (the benchmark's
// Durable Objects run in workerd, bench/worker-bindings.ts); and WebCrypto's
// `timingSafeEqual`, workerd's extension, as Node's.
import { timingSafeEqual } from "node:crypto";
import { registerHooks } from "node:module";

const CLOUDFLARE_WORKERS = `data:text/javascript,${encodeURIComponent(
  "export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }",
)}`;

registerHooks({
  resolve: (specifier, context, nextResolve) =>
    specifier === "cloudflare:workers"
      ? { url: CLOUDFLARE_WORKERS, shortCircuit: true }
      : nextResolve(specifier, context),
});

Object.assign(crypto.subtle, {
  timingSafeEqual: (a: ArrayBufferView, b: ArrayBufferView) =>
    timingSafeEqual(
      new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
      new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
    ),
});
