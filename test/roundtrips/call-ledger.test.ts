import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  CallLedger,
  countingBindings,
  statementLabel,
} from "../helpers/counting-bindings";
import { roundTrips } from "./round-trip-table";

// The ledger on the real local bindings: what it says of calls made one
// after another, together, and left to run after the answer.

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const ledger = new CallLedger();
const bindings = countingBindings(env, ledger);
const db = bindings.DB_0;
const select = () => db.prepare("SELECT 1 AS one FROM organizations").all();

/** The figures of `work`, whose result stands for the answer. */
async function figuresOf(
  work: (background: (call: Promise<unknown>) => void) => Promise<unknown>,
) {
  const left: Promise<unknown>[] = [];
  const { calls } = await ledger.measureRequest(
    () => work((call) => left.push(call)),
    async () => {
      await Promise.all(left);
    },
  );
  return roundTrips("work", calls);
}

describe("the call ledger", () => {
  it("counts calls one after another as a chain", async () => {
    const figures = await figuresOf(async () => {
      await select();
      await bindings.PDFS.put("ledger/a", "a");
      await bindings.PDFS.get("ledger/a");
    });
    expect(figures).toMatchObject({
      calls: 3,
      sequential: 3,
      background: 0,
      path: "D1 select organizations → PDFS put → PDFS get",
    });
  });

  it("counts calls made together as one step", async () => {
    const figures = await figuresOf(async () => {
      await Promise.all([select(), bindings.PDFS.head("ledger/none")]);
      const limiter = bindings.RATE_LIMITER.getByName("ledger");
      const limits = [{ limit: 10, windowMs: 60_000 }];
      await limiter.consume("ledger", NOW, limits);
      await limiter.consume("ledger", NOW + 1, limits);
    });
    expect(figures).toMatchObject({
      calls: 4,
      sequential: 3,
      path: "D1 select organizations + PDFS head → RATE_LIMITER consume → RATE_LIMITER consume",
    });
  });

  it("counts a batch as one call, and what the answer did not wait for apart", async () => {
    const figures = await figuresOf(async (background) => {
      await db.batch([
        db.prepare("SELECT 1 FROM organizations"),
        db.prepare("SELECT 2 FROM credentials"),
      ]);
      background(bindings.PDFS.delete("ledger/a"));
      await select();
    });
    expect(figures).toMatchObject({
      calls: 2,
      sequential: 2,
      background: 1,
      path: "D1 batch(2) → D1 select organizations; then PDFS delete",
    });
  });

  it("reads an object's body with its get, and leaves calls outside a measurement alone", async () => {
    await bindings.PDFS.put("ledger/body", "bytes");
    const figures = await figuresOf(async () => {
      const object = await bindings.PDFS.get("ledger/body");
      expect(await object?.text()).toBe("bytes");
    });
    expect(figures).toMatchObject({ calls: 1, path: "PDFS get" });
  });

  it("names what a statement does, to which table", () => {
    expect(
      statementLabel('select "id" from "documents" where "uuid" = ?'),
    ).toBe("select documents");
    expect(statementLabel('insert into "audit_events" values (?)')).toBe(
      "insert audit_events",
    );
    expect(statementLabel('update "documents" set "x" = 1')).toBe(
      "update documents",
    );
  });
});
