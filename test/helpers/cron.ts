import {
  createExecutionContext,
  createScheduledController,
  env,
} from "cloudflare:test";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createScheduledHandler } from "../../src/scheduled";
import { fixedClock } from "./worker";

/** One run of the cron at `at`, on `bindings` (the test Worker's by default). */
export const runCron = (at: number, bindings: Env = env) =>
  createScheduledHandler({
    clock: fixedClock(at),
    renderPdf: renderDocumentPdf,
  })(createScheduledController(), bindings, createExecutionContext());
