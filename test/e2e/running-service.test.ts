import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  noteRunningService,
  runningServiceOrigin,
} from "../../scripts/lib/running-service";

// The tools reach a local state through the `npm start` that serves it, when
// one runs (scripts/lib/running-service.ts); otherwise they run a Worker on
// the state themselves. A note that names a dead process, or a port that does
// not answer as the service does, is no running service.

let stateDir: string;
let server: Server | undefined;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "deca-running-"));
});

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(0)));
  server = undefined;
  await rm(stateDir, { recursive: true, force: true });
});

/** A loopback server answering the service's OpenAPI path with `status`. */
async function serving(status: number): Promise<number> {
  server = createServer((request, response) => {
    response
      .writeHead(request.url === "/api/v1/openapi.json" ? status : 404)
      .end("{}");
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("the running service of a state folder", () => {
  it("is the noted port while its process lives and the port answers; none once forgotten", async () => {
    const port = await serving(200);
    const forget = await noteRunningService(stateDir, port);
    expect(await runningServiceOrigin(stateDir)).toBe(
      `http://127.0.0.1:${port}`,
    );
    await forget();
    expect(await readdir(stateDir)).toEqual([]);
    expect(await runningServiceOrigin(stateDir)).toBeNull();
  });

  it("is none when the port does not answer as the service does", async () => {
    await noteRunningService(stateDir, await serving(404));
    expect(await runningServiceOrigin(stateDir)).toBeNull();
  });

  it("is none when the noted process is gone", async () => {
    const port = await serving(200);
    await noteRunningService(stateDir, port);
    const note = join(stateDir, "running-service.json");
    // A pid no process holds (beyond Linux's and macOS's pid_max).
    await writeFile(note, JSON.stringify({ port, pid: 2 ** 30 }));
    expect(await runningServiceOrigin(stateDir)).toBeNull();
  });

  it("is none without a note", async () => {
    expect(await runningServiceOrigin(stateDir)).toBeNull();
  });
});
