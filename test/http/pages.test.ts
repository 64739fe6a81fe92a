import { describe, expect, it } from "vitest";
import { call } from "../helpers/worker";

describe("GET /docs", () => {
  it("serves the API reference page with its policy, rendering our own description", async () => {
    const response = await call("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    const html = await response.text();
    // Every script and style is a file of this origin: none inline, no CDN.
    expect(html).not.toMatch(/<script>|<style|https?:\/\//);
    expect(html).toContain('src="/vendor/swagger-ui/swagger-ui-bundle.js"');
    const init = await (await call("/docs/docs.js")).text();
    expect(init).toContain('url: "/api/v1/openapi.json"');
  });

  it("bundles the viewer's files with the Worker", async () => {
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
      const response = await call(`/vendor/swagger-ui/${file}`);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
  });

  it("answers the API's 404 for a file that is not there", async () => {
    const response = await call("/docs/nothing.js");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      errors: [{ code: "NOT_FOUND" }],
    });
  });
});
