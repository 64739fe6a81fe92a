import { describe, expect, it } from "vitest";
import { commandCall, UsageError } from "../../scripts/lib/key-commands";
import type { OpsClient } from "../../scripts/lib/ops-client";

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
