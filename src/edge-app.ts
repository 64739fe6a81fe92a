import { Hono } from "hono";
import { answerFailure, createApp } from "./app";
import type { AppDependencies, EdgeEnv } from "./env";
import { QR_LINK_OPERATIONS } from "./http/operations/qr-links";
import { pageRoutes } from "./http/routes/pages";
import { oncePer } from "./once-per";

/**
 * The edge Worker (src/edge.ts, docs/scale.md "Placement"): the QR links and
 * the pages answered here, at the caller's data centre; every other request
 * handed as it came to the API Worker through the service binding `API`,
 * whose answer goes back untouched (its own request id, headers and body);
 * a hand-over that fails is answered like any failure of the API.
 */
/**
 * The edge's bindings as its services read them: no eFTI gate, since the
 * edge registers nothing with one and holds none of its secrets (its URL is
 * among the vars both Workers share). One object per bindings object, so the
 * configuration is still read once.
 */
const withoutGate = oncePer(
  (env: EdgeEnv): EdgeEnv =>
    Object.create(env, { EFTI_GATE_URL: { value: "" } }) as EdgeEnv,
);

export function createEdgeWorker(dependencies: AppDependencies) {
  const edge = createApp(dependencies, {
    operations: QR_LINK_OPERATIONS,
    routes: [["/", pageRoutes]],
  });
  const front = new Hono<{ Bindings: EdgeEnv }>();
  // The paths the edge app routes, whatever the method: a wrong method there
  // is its 405, as the API Worker's is for its own paths.
  const edgePaths = new Set(
    edge.routes.filter((route) => route.method !== "ALL").map((r) => r.path),
  );
  for (const path of edgePaths) {
    front.all(path, (c) =>
      edge.fetch(c.req.raw, withoutGate(c.env), c.executionCtx),
    );
  }
  front.all("*", (c) => c.env.API.fetch(c.req.raw));
  // The hand-over itself failed (the API Worker threw, or could not be
  // reached): no answer of the API to pass on, so the edge answers as the API
  // would have.
  front.onError((failure, c) =>
    answerFailure(failure, c.req.raw, withoutGate(c.env)),
  );
  return front;
}
