import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ShardRebalance } from "../../../src/durable-objects/shard-rebalance";
import { opsClient, opsJson } from "../../helpers/ops";
import { FROM, job, jobState, rebalanceDone } from "../../helpers/rebalance";
import { HEAVY_TEST_MS } from "../../helpers/worker";

// The rebalance job as the operator starts it (docs/scale.md "Adding
// shards"): only for the shard count the deployment still routes unmoved
// rows by, and never left "running" with no alarm to move it on.

const whileMovingFrom = (shardsBefore: number | "") =>
  opsClient({ ...env, SHARDS_BEFORE: String(shardsBefore) } as Env);

const start = (ops: ReturnType<typeof opsClient>, from: number) =>
  ops("/ops/v1/shards/rebalance", opsJson("POST", { from }));

/** A pass running from FROM whose alarm was lost (its retries spent, say). */
const passWithoutAlarm = () =>
  runInDurableObject(job(), async (instance: ShardRebalance, state) => {
    await instance.start(FROM);
    await state.storage.deleteAlarm();
  });

describe("starting a rebalance", () => {
  it("is refused unless `from` is SHARDS_BEFORE and less than the shards bound, and then no pass starts", async () => {
    for (const [shardsBefore, from] of [
      // SHARDS_BEFORE unset: the deployment does not look in former shards.
      ["", FROM],
      // A pass from 1 would read shard 0 only and leave shard 1's rows.
      [FROM, 1],
      [4, 4],
    ] as const) {
      const refused = await start(whileMovingFrom(shardsBefore), from);
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({
        errors: [{ field: "from", code: "INVALID_VALUE" }],
      });
    }
    expect((await whileMovingFrom("")("/ops/v1/shards/rebalance")).status).toBe(
      404,
    );
  });

  it(
    "again, sets the alarm of a running pass that lost it, and the pass finishes",
    async () => {
      await passWithoutAlarm();
      expect(await jobState()).toMatchObject({
        progress: { state: "running" },
        alarmSet: false,
      });
      const started = await start(whileMovingFrom(FROM), FROM);
      expect(started.status).toBe(202);
      expect(await started.json()).toMatchObject({ state: "running" });
      expect((await rebalanceDone()).state).toBe("done");
    },
    HEAVY_TEST_MS,
  );

  it(
    "is refused while a pass for other shard counts runs, which goes on to its end",
    async () => {
      await passWithoutAlarm();
      const refused = await start(whileMovingFrom(1), 1);
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({
        errors: [
          {
            field: "from",
            code: "INVALID_VALUE",
            message: expect.stringContaining("a pass from 2 to 4 shards"),
          },
        ],
      });
      expect(await rebalanceDone()).toMatchObject({ from: FROM, to: 4 });
    },
    HEAVY_TEST_MS,
  );
});
