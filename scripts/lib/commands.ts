// Drives the service as a person does, for the e2e tests, the benchmarks and
// the fixture scripts: `npm start` on a free port and a state folder, and the
// key tool.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run keys -- ARGS` as support would, on the given local state. */
export const keys = (persistTo: string, ...args: string[]) =>
  keysCommand([...args, "--persist-to", persistTo]);

/** Runs `npm run keys -- --url URL ARGS`: the operations API of the Worker at `url`. */
export const keysAt = (url: string, ...args: string[]) =>
  keysCommand(["--url", url, ...args]);

/** `keysAt` with `vars` set in the tool's environment. */
export const keysAtWith = (
  vars: Record<string, string>,
  url: string,
  ...args: string[]
) => keysCommand(["--url", url, ...args], vars);

async function keysCommand(
  args: string[],
  vars: Record<string, string> = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await execFileAsync(
      "npm",
      ["run", "keys", "--", ...args],
      { env: { ...process.env, ...vars } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

/** Requests to the service on `port` under `key`, with JSON bodies. */
export const apiClient =
  (port: number, key: string) =>
  (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`http://localhost:${port}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${key}`,
        "Content-Type": "application/json",
        ...init.headers,
      },
    });

export interface RunningService {
  /** The loopback port it listens on. */
  port: number;
  output: () => string;
  stop: () => Promise<void>;
}

const spawnStart = (
  port: number,
  persistTo: string,
  vars: Record<string, string>,
  cwd?: string,
): ChildProcess =>
  spawn("npm", ["start", "--", "--persist-to", persistTo], {
    cwd,
    // vitest puts Vite's BASE_URL ("/") in its environment, which npm start
    // would take for the service's own; empty is wrangler.toml's.
    env: { ...process.env, BASE_URL: "", ...vars, PORT: String(port) },
    detached: true,
  });

/** `npm start` with `vars` set in its environment, expected to refuse to start. */
export async function refusedStart(
  port: number,
  persistTo: string,
  vars: Record<string, string>,
): Promise<CommandResult> {
  const child = spawnStart(port, persistTo, vars);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number>((resolve) =>
    child.once("exit", (exitCode) => resolve(exitCode ?? -1)),
  );
  return { code, stdout, stderr };
}

/** How often a start is tried again when its port was taken meanwhile. */
const PORT_ATTEMPTS = 3;

/**
 * `npm start` on a free port and a state folder, in the checkout `cwd` (this
 * one by default), with `vars` set in its environment; resolves once
 * wrangler is ready. A port found free can be
 * taken by another process before wrangler binds it (test files start
 * services side by side): then it starts again on another.
 */
export async function startService(
  persistTo: string,
  cwd?: string,
  vars: Record<string, string> = {},
): Promise<RunningService> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(await freePort(), persistTo, cwd, vars);
    } catch (error) {
      const taken = /Address already in use/.test(String(error));
      if (!taken || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOnPort(
  port: number,
  persistTo: string,
  cwd: string | undefined,
  vars: Record<string, string>,
): Promise<RunningService> {
  const child = spawnStart(port, persistTo, vars, cwd);
  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    await exited;
  };
  // A limit for a hang on a loaded machine. Ready once wrangler is and the
  // key is printed, after the state's upgrade.
  const deadline = Date.now() + 180_000;
  while (!/Ready on http/.test(output) || !/Development API key/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { port, output: () => output, stop };
}

/**
 * A checkout of this one at `checkout` with `devVars` as its .dev.vars (an
 * old release's keyrings): every entry linked but .dev.vars, .git and the
 * local state.
 */
export async function checkoutWithDevVars(
  checkout: string,
  devVars: string,
): Promise<void> {
  const repo = process.cwd();
  await mkdir(checkout);
  for (const entry of await readdir(repo)) {
    if ([".dev.vars", ".git", ".wrangler"].includes(entry)) continue;
    await symlink(join(repo, entry), join(checkout, entry));
  }
  await writeFile(join(checkout, ".dev.vars"), devVars);
}
