import { systemClock } from "./clock";
import type { RenderPdf } from "./domain/documents/render-port";
import { createEdgeWorker } from "./edge-app";
import type { EdgeEnv } from "./env";

// The edge Worker's entry (wrangler.edge.toml). It serves stored PDFs and
// renders none: the renderer, its fonts and pdf-lib stay out of its bundle
// (test/e2e/production-config.test.ts), and a render asked here is a bug.
const rendersNothing: RenderPdf = () => {
  throw new Error("The edge Worker renders no PDF.");
};

const dependencies = { clock: systemClock, renderPdf: rendersNothing };

export default {
  fetch: createEdgeWorker(dependencies).fetch,
} satisfies ExportedHandler<EdgeEnv>;
