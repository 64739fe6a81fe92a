import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { inject } from "vitest";

const SCREENSHOTS = "test/e2e/screenshots";

/** The machine's Chrome or Chromium that find-chromium.ts chose, never a downloaded build. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: inject("chromiumPath"),
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * What a page did that it must not: a request to another origin, a console
 * error (a Content-Security-Policy violation is one), an uncaught error.
 */
export function watchPage(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    // blob: and data: are the page's own; chrome: is the built-in PDF viewer.
    if (
      !url.startsWith(origin) &&
      !/^(blob|data|chrome|chrome-extension):/.test(url)
    ) {
      problems.push(`request to ${url}`);
    }
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`error: ${error.message}`));
  return problems;
}

/** A screenshot of the step, in a folder git ignores. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
  });
}
