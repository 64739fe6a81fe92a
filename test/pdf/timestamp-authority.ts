// A time-stamping authority on 127.0.0.1 for the seal's B-T tests: each
// request answered by `openssl ts -reply` with a certificate made for the
// run, or, silent, never answered.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TimestampAuthority {
  url: string;
  /** The tokens it answered with, DER, in order. */
  responses: Uint8Array[];
  close(): Promise<void>;
}

function opensslResponder(): (query: Buffer) => Buffer {
  const dir = mkdtempSync(join(tmpdir(), "tsa-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      join(dir, "tsa.key"),
      "-out",
      join(dir, "tsa.pem"),
      "-days",
      "3650",
      "-subj",
      "/CN=TSA local de pruebas",
      "-addext",
      "extendedKeyUsage=critical,timeStamping",
      "-addext",
      "keyUsage=critical,digitalSignature",
    ],
    { stdio: "ignore" },
  );
  writeFileSync(join(dir, "serial"), "01\n");
  writeFileSync(
    join(dir, "tsa.cnf"),
    [
      "[ tsa ]",
      "default_tsa = local",
      "[ local ]",
      `serial = ${join(dir, "serial")}`,
      `signer_cert = ${join(dir, "tsa.pem")}`,
      `signer_key = ${join(dir, "tsa.key")}`,
      "signer_digest = sha256",
      "default_policy = 1.2.3.4.1",
      "digests = sha256",
      "accuracy = secs:1",
      "ess_cert_id_alg = sha256",
      "",
    ].join("\n"),
  );
  return (query) => {
    writeFileSync(join(dir, "query.tsq"), query);
    execFileSync(
      "openssl",
      [
        "ts",
        "-reply",
        "-config",
        join(dir, "tsa.cnf"),
        "-queryfile",
        join(dir, "query.tsq"),
        "-out",
        join(dir, "reply.tsr"),
      ],
      { stdio: "ignore" },
    );
    return readFileSync(join(dir, "reply.tsr"));
  };
}

/** Starts an authority; `silent`: it reads each request and never answers. */
export async function startTimestampAuthority({
  silent = false,
} = {}): Promise<TimestampAuthority> {
  const respond = silent ? null : opensslResponder();
  const responses: Uint8Array[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (!respond) return;
      const reply = respond(Buffer.concat(chunks));
      responses.push(reply);
      response.writeHead(200, {
        "Content-Type": "application/timestamp-reply",
      });
      response.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    responses,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
