import { describe, expect, it } from "vitest";
import { commandCall, UsageError } from "../../scripts/lib/key-commands";
import type { OpsClient } from "../../scripts/lib/ops-client";
import {
  CHAIN_START,
  gateCallHash,
} from "../../src/domain/operations/gate-call-chain";
import type { GateCallRecord } from "../../src/schemas/ops";

// The key tool's commands on a key's webhook endpoints, as its arguments
// make them: which call of the operations API each makes, or the usage
// error it stops at before any Worker is reached. start-and-keys.test.ts
// runs the tool itself.

/** A client that records the calls made of it and answers `answer`. */
function recordingOps(answer: unknown = { data: [] }) {
  const calls: unknown[][] = [];
  const ops = new Proxy(
    {},
    {
      get:
        (_target, method) =>
        async (...args: unknown[]) => {
          calls.push([method, ...args]);
          return answer;
        },
    },
  ) as OpsClient;
  return { calls, ops };
}

const ENDPOINT = "we_4kQ9xT2mB7rLw0ZcN5vH8pJd";

describe("npm run keys on a key's webhook endpoints", () => {
  it("lists a credential's endpoints", async () => {
    const { calls, ops } = recordingOps();
    const result = await commandCall("webhooks", ["cred_abc"], {})(ops);
    expect(calls).toEqual([["listKeyWebhookEndpoints", "cred_abc"]]);
    expect(result).toEqual({ data: [] });
  });

  it("deletes one, and says so", async () => {
    const { calls, ops } = recordingOps(null);
    const result = await commandCall(
      "delete-webhook",
      ["cred_abc", ENDPOINT],
      {},
    )(ops);
    expect(calls).toEqual([["deleteKeyWebhookEndpoint", "cred_abc", ENDPOINT]]);
    expect(result).toEqual({
      credential_id: "cred_abc",
      endpoint_id: ENDPOINT,
      deleted: true,
    });
  });

  it.each([
    [["webhooks"]],
    [["webhooks", "cred_abc", "extra"]],
    [["delete-webhook", "cred_abc"]],
    [["delete-webhook", "cred_abc", "not-an-endpoint"]],
  ])("refuses %j before calling anything", (args) => {
    const [command, ...positionals] = args;
    expect(() => commandCall(command, positionals, {})).toThrow(UsageError);
  });
});

describe("npm run keys -- verify-audit", () => {
  /** A chain of `count` rows, each linked to the one before, as the Worker writes it. */
  async function chain(count: number): Promise<GateCallRecord[]> {
    const rows: GateCallRecord[] = [];
    let previous = CHAIN_START;
    for (let id = 1; id <= count; id++) {
      const fields = {
        entry: "refused" as const,
        operation: "get_consignment" as const,
        request_id: `req_${id}`,
        gate_request_id: null,
        dataset_id: "unknown",
        subsets: ["full"],
        subsets_served: null,
        gate: null,
        client_ip: "127.0.0.1",
        status: 401,
        started_at: "2026-11-29T04:00:00.000Z",
        finished_at: "2026-11-29T04:00:00.000Z",
        previous_hash: previous,
      };
      const hash = await gateCallHash(fields);
      rows.push({ id, ...fields, hash });
      previous = hash;
    }
    return rows;
  }

  /** An operations client paging `rows` two at a time, as the Worker pages the chain. */
  const paging = (rows: GateCallRecord[]) =>
    ({
      gateCallChain: async (after = 0) => {
        const rest = rows.filter((row) => row.id > after);
        return { data: rest.slice(0, 2), has_more: rest.length > 2 };
      },
    }) as unknown as OpsClient;

  it("walks every page of an unbroken chain", async () => {
    const verify = commandCall("verify-audit", [], {});
    expect(await verify(paging(await chain(5)))).toEqual({
      verified_rows: 5,
      broken: null,
    });
  });

  it("names the row altered, and the row after one removed", async () => {
    const verify = commandCall("verify-audit", [], {});
    const altered = await chain(5);
    altered[2] = { ...(altered[2] as GateCallRecord), status: 200 };
    await expect(verify(paging(altered))).rejects.toThrow(
      /broken at row 3: its hash is not that of its fields \(2 rows before it verified\)/,
    );
    const removed = (await chain(5)).filter((row) => row.id !== 4);
    await expect(verify(paging(removed))).rejects.toThrow(
      /broken at row 5: its previous_hash is not the hash of the row before it/,
    );
  });
});
