import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, watchPage } from "./browser";
import { freePort, type RunningService, startService } from "./commands";

// The pages as a person sees them: npm start, then headless Chromium.
const WAIT = { timeout: 30_000 };
let stateDir: string;
let origin: string;
let service: RunningService;
let browser: Browser;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "deca-pages-"));
  const port = await freePort();
  origin = `http://localhost:${port}`;
  [service, browser] = await Promise.all([
    startService(port, stateDir),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

async function openPage(
  path: string,
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems = watchPage(page, origin);
  await page.goto(`${origin}${path}`);
  return { page, problems };
}

describe("/docs", () => {
  it("renders every operation of the API reference from this origin only", async () => {
    const { page, problems } = await openPage("/docs");
    await page.locator(".opblock").first().waitFor();
    const operations = await page.locator(".opblock").count();
    await screenshot(page, "docs");
    // 17 operations, plus the HEAD beside the GET of the PDF and the QR image
    // at both addresses and of both QR links.
    expect(operations).toBe(23);
    const methods = await page
      .locator(".opblock-summary-method")
      .allTextContents();
    expect(methods.filter((method) => method === "HEAD")).toHaveLength(6);
    const paths = await page.locator(".opblock-summary-path").allTextContents();
    expect(paths).toContain("/api/v1/documents/ref/{reference}/pdf");
    expect(paths).toContain("/api/v1/documents/ref/{reference}/qr");
    // In English, like every description under it.
    expect(await page.locator(".info .title").textContent()).toMatch(
      /^DeCA API: Spain's road transport control document/,
    );
    expect(problems).toEqual([]);
  });
});

describe("the playground at /", () => {
  it("requests a token, issues, opens the QR link, shows a field's error, corrects, deletes", async () => {
    const { page, problems } = await openPage("/");
    await expect
      .poll(() => page.inputValue("[name='shipper.name']"), WAIT)
      .not.toBe("");
    await screenshot(page, "1-prefilled");

    await page.getByRole("button", { name: "Pedir un token" }).click();
    await expect
      .poll(() => page.textContent("#token-status"), WAIT)
      .toMatch(/^Token listo/);
    await screenshot(page, "2-token");

    await page.getByRole("button", { name: "Emitir el documento" }).click();
    await expect
      .poll(() => page.textContent("#result-status"), WAIT)
      .toMatch(/^Emitido: /);
    await expect
      .poll(() => page.getAttribute("#pdf", "src"), WAIT)
      .toMatch(/^blob:/);
    await screenshot(page, "3-issued");

    const qrLink = await page.getAttribute("#qr-link", "href");
    expect(qrLink).toMatch(new RegExp(`^${origin}/demo/d/[0-9a-f-]{36}\\?k=`));
    const qr = await page.request.get(qrLink ?? "");
    expect(qr.status()).toBe(200);
    expect(qr.headers()["content-type"]).toBe("application/pdf");
    expect((await qr.body()).subarray(0, 5).toString()).toBe("%PDF-");

    // The API's errors in the page's language, its own English in the tooltip.
    const weight = await page.inputValue("[name='goods.weight_kg']");
    await page.fill("[name='vehicle.registration']", "12");
    await page.fill("[name='goods.weight_kg']", "");
    await page.getByRole("button", { name: "Corregir" }).click();
    const error = page.locator("[id='error-vehicle.registration']");
    await expect
      .poll(() => error.textContent(), WAIT)
      .toBe("No es una matrícula válida de su país.");
    expect(await error.getAttribute("title")).toMatch(/registration/);
    expect(
      await page.getAttribute("[name='vehicle.registration']", "aria-invalid"),
    ).toBe("true");
    const goodsError = page.locator("#error-goods");
    expect(await goodsError.textContent()).toBe(
      "Indica el peso o una medida alternativa, uno de los dos.",
    );
    expect(await goodsError.getAttribute("title")).toMatch(/weight_kg/);
    await screenshot(page, "4-validation-error");

    await page.fill("[name='vehicle.registration']", "5678DFG");
    await page.fill("[name='goods.weight_kg']", weight);
    await page.getByRole("button", { name: "Corregir" }).click();
    await expect
      .poll(() => page.textContent("#result-status"), WAIT)
      .toMatch(/^Corregido, nueva versión: /);
    expect(await error.textContent()).toBe("");
    expect(await error.getAttribute("title")).toBe("");
    expect(await goodsError.textContent()).toBe("");
    await screenshot(page, "5-corrected");

    await page.getByRole("button", { name: "Eliminar" }).click();
    await expect
      .poll(() => page.textContent("#result-status"), WAIT)
      .toMatch(/^Eliminado: /);
    await screenshot(page, "6-deleted");

    const calls = await page.locator("#calls pre").allTextContents();
    expect(calls[0]).toMatch(/^curl -X POST '.+\/api\/v1\/demo\/tokens'/);
    expect(calls.some((call) => call.startsWith("curl -X PUT"))).toBe(true);
    expect(calls.some((call) => call.startsWith("curl -X DELETE"))).toBe(true);
    expect(problems.filter((problem) => !problem.includes("422"))).toEqual([]);
  });

  it("labels the place of loading and that of unloading, in both languages", async () => {
    const { page } = await openPage("/");
    const label = (path: string) =>
      page.textContent(`label[for='input-${path}']`);
    expect(await label("origin.place")).toBe("Lugar de carga");
    expect(await label("destination.place")).toBe("Lugar de descarga");
    await page.getByRole("button", { name: "English" }).click();
    expect(await label("origin.place")).toBe("Loading place");
    expect(await label("destination.place")).toBe("Unloading place");
  });

  it("switches to English", async () => {
    const { page } = await openPage("/");
    await page.getByRole("button", { name: "English" }).click();
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.textContent("#issue")).toBe("Issue the document");
    await screenshot(page, "7-english");
  });
});
