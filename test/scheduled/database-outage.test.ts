import {
  createExecutionContext,
  createScheduledController,
  env,
} from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ORPHAN_AGE_MS } from "../../src/domain/documents/attempts";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { createScheduledHandler } from "../../src/scheduled";
import { D1_OUTAGE, d1Down } from "../helpers/faults";
import { fixedClock } from "../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 12);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the cron when D1 is down for the demo sessions and the archiver", () => {
  it("logs the failure and still sweeps the orphan PDFs", async () => {
    const orphan = "documents/orphan-during-outage.pdf";
    await env.DB_0.prepare(
      "INSERT INTO pending_pdf_objects (object_key, created_at) VALUES (?, ?)",
    )
      .bind(orphan, NOW)
      .run();
    await env.PDFS.put(orphan, "sealed bytes");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});

    await createScheduledHandler({
      clock: fixedClock(NOW + ORPHAN_AGE_MS),
      renderPdf: renderDocumentPdf,
    })(
      createScheduledController(),
      // Every statement but the sweeps' own (their notes and marks, a document by uuid) fails.
      d1Down(
        /^(?!.*("pending_pdf_objects"|"pending_deletion_marks"|"documents"\."uuid" = \?))/s,
      ),
      createExecutionContext(),
    );

    expect(errors.mock.calls.map(([line]) => JSON.parse(line))).toEqual(
      [
        "correction_reservations",
        "lost_events",
        "lost_deliveries",
        "archive",
        "event_purge",
        "demo_sessions",
        "ops_calls",
        "gate_call_exports",
      ].map((task) => ({
        event: "scheduled_cleanup_failed",
        task,
        error: "Error",
        message: D1_OUTAGE,
      })),
    );
    expect(await env.PDFS.head(orphan)).toBeNull();
  });
});
