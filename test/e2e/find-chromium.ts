// Global set-up of the `commands` project: the browser that the page tests
// drive. No npm package ships one that runs without a download, so this finds
// the machine's own, and on Debian as root installs Debian's; it never
// downloads a browser from anywhere else, and fails rather than skip.
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

const run = promisify(execFile);

const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const MAC_APPLICATIONS = ["/Applications", join(homedir(), "Applications")];
const KNOWN_PATHS = [
  DEBIAN_CHROMIUM,
  "/usr/bin/google-chrome",
  ...MAC_APPLICATIONS.flatMap((folder) => [
    join(folder, "Google Chrome.app/Contents/MacOS/Google Chrome"),
    join(folder, "Chromium.app/Contents/MacOS/Chromium"),
  ]),
];

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

async function installDebianChromium(): Promise<void> {
  console.log(
    `No Chrome or Chromium found: installing Debian's chromium with apt-get for the page tests.`,
  );
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    await run("apt-get", ["update", "-qq"], { env });
    await run("apt-get", ["install", "-y", "-qq", "chromium"], { env });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`apt-get install chromium failed: ${stderr ?? error}`);
  }
}

/** The browser's path: CHROMIUM_PATH, else a known install, else Debian's installed now. */
async function chromiumPath(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!isExecutable(chosen)) {
      throw new Error(`CHROMIUM_PATH=${chosen} is not an executable browser`);
    }
    return chosen;
  }
  const found = KNOWN_PATHS.find(isExecutable);
  if (found) return found;
  if (existsSync("/etc/debian_version") && process.getuid?.() === 0) {
    await installDebianChromium();
    if (isExecutable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  }
  throw new Error(
    "The page tests need Chrome or Chromium and found none: set CHROMIUM_PATH to one, " +
      "or install it (Debian: apt-get install chromium; macOS: Google Chrome in /Applications).",
  );
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide("chromiumPath", await chromiumPath());
}
