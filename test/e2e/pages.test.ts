import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../../scripts/lib/commands";
import { launchChromium, screenshot, watchPage } from "./browser";

// The pages as a person sees them: npm start, then headless Chromium.
const WAIT = { timeout: 30_000 };
let stateDir: string;
let origin: string;
let service: RunningService;
let browser: Browser;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "deca-pages-"));
  [service, browser] = await Promise.all([
    startService(stateDir),
    launchChromium(),
  ]);
  origin = `http://localhost:${service.port}`;
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
    // Every operation the API description holds, HEADs included (the HEAD
    // beside the GET of the PDF and the QR image at both addresses and of
    // both QR links), and every webhook it describes.
    type Items = Record<string, Record<string, unknown>>;
    const described = (await (
      await fetch(`${origin}/api/v1/openapi.json`)
    ).json()) as { paths: Items; webhooks: Items };
    const HTTP_METHODS = ["get", "put", "post", "delete", "head", "patch"];
    const describedOperations = [
      ...Object.values(described.paths),
      ...Object.values(described.webhooks),
    ].flatMap((item) =>
      Object.keys(item).filter((key) => HTTP_METHODS.includes(key)),
    );
    expect(operations).toBe(describedOperations.length);
    expect(operations).toBeGreaterThanOrEqual(24);
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

  it("adds and removes shipments, issues a grouped document, marks an error inside shipment 2", async () => {
    const { page, problems } = await openPage("/");
    await expect
      .poll(() => page.inputValue("[name='goods.weight_kg']"), WAIT)
      .not.toBe("");
    await page.getByRole("button", { name: "Pedir un token" }).click();
    await expect
      .poll(() => page.textContent("#token-status"), WAIT)
      .toMatch(/^Token listo/);

    const addShipment = page.getByRole("button", { name: "Añadir un envío" });
    await addShipment.click();
    await addShipment.click();
    expect(await page.locator("legend").allTextContents()).toEqual(
      expect.arrayContaining(["Envío 1", "Envío 2", "Envío 3"]),
    );
    // The single shipment's values are shipment 1's; a new one starts empty.
    const weight = "[name='shipments.0.goods.weight_kg']";
    expect(await page.inputValue(weight)).toBe("12345.678");
    expect(await page.locator("[name='goods.weight_kg']").count()).toBe(0);
    expect(await page.inputValue("[name='shipments.2.origin.place']")).toBe("");
    await page.fill("[name='shipments.2.origin.place']", "Almacén Sur");
    await page.getByRole("button", { name: "Quitar el envío 2" }).click();
    // Shipment 3 became shipment 2, its values with it.
    expect(await page.inputValue("[name='shipments.1.origin.place']")).toBe(
      "Almacén Sur",
    );
    expect(
      await page.getByRole("button", { name: "Quitar el envío 3" }).count(),
    ).toBe(0);
    // Each input by its label, inside its group, inside shipment 2.
    const shipment2 = page.getByRole("group", { name: "Envío 2" });
    const fill = (group: string, label: string, value: string) =>
      shipment2
        .getByRole("group", { name: group })
        .getByLabel(label, { exact: true })
        .fill(value);
    await fill("Origen", "Municipio", "Castellón de la Plana");
    await fill("Origen", "País", "ES");
    await fill("Destino", "Lugar de descarga", "Obra Residencial Mar");
    await fill("Destino", "Municipio", "Valencia");
    await fill("Destino", "País", "ES");
    await fill("Mercancía", "Descripción", "Adhesivo cementoso en sacos");
    await fill("Mercancía", "Peso (kg)", "2400.5");
    await screenshot(page, "8-two-shipments");

    // Two calls only: the demo lets an IP issue 5 documents a minute, and
    // the test above issues 3.
    await page.fill("[name='shipments.1.goods.weight_kg']", "-3");
    await page.fill(weight, "");
    await page.getByRole("button", { name: "Emitir el documento" }).click();
    const error = page.locator("[id='error-shipments.1.goods.weight_kg']");
    await expect
      .poll(() => error.textContent(), WAIT)
      .toBe(
        "Debe ser un número mayor que cero, con hasta 6 decimales separados por un punto.",
      );
    expect(await error.getAttribute("title")).toMatch(/decimal greater than/);
    expect(
      await page.getAttribute(
        "[name='shipments.1.goods.weight_kg']",
        "aria-invalid",
      ),
    ).toBe("true");
    expect(await page.getAttribute(weight, "aria-invalid")).toBeNull();
    // A rule across a shipment's fields names its group, worded as usual.
    expect(await page.textContent("[id='error-shipments.0.goods']")).toBe(
      "Indica el peso o una medida alternativa, uno de los dos.",
    );
    await screenshot(page, "9-shipment-error");

    await page.fill("[name='shipments.1.goods.weight_kg']", "2400.5");
    await page.fill(weight, "12345.678");
    const created = page.waitForResponse(
      (response) =>
        response.request().method() === "POST" &&
        response.url().endsWith("/api/v1/documents"),
    );
    await page.getByRole("button", { name: "Emitir el documento" }).click();
    const issued = await (await created).json();
    expect(issued.data.shipments).toHaveLength(2);
    expect(issued.data.shipments[1].origin.place).toBe("Almacén Sur");
    expect(issued.data).not.toHaveProperty("goods");
    await expect
      .poll(() => page.textContent("#result-status"), WAIT)
      .toMatch(/^Emitido: /);
    expect(await error.textContent()).toBe("");

    // Back to one shipment: the single-shipment inputs, shipment 1's values.
    await page.getByRole("button", { name: "Quitar el envío 2" }).click();
    expect(await page.inputValue("[name='goods.weight_kg']")).toBe("12345.678");
    expect(await page.locator("[name^='shipments.']").count()).toBe(0);
    expect(await page.locator("legend", { hasText: "Envío" }).count()).toBe(0);
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
    await page.getByRole("button", { name: "Add a shipment" }).click();
    expect(await page.getByRole("group", { name: "Shipment 2" }).count()).toBe(
      1,
    );
    expect(
      await page.getByRole("button", { name: "Remove shipment 2" }).count(),
    ).toBe(1);
    await screenshot(page, "7-english");
  });
});
