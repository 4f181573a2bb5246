/**
 * Reads shared within one event-loop turn (src/per-turn.ts): the key epoch is read once for all
 * the requests of a turn, and the Redis rate-limit script is called once for them. What makes this
 * safe is that the shared read starts after every caller it answers, never before.
 */
import { describe, expect, it } from "vitest";
import { batchPerTurn, oncePerTurn, oncePerTurnOneInFlight } from "../src/per-turn.ts";

describe("oncePerTurn: one read answers every call of the turn", () => {
  it("calls of one turn share one read, and the read starts after the last of them", async () => {
    const events: string[] = [];
    let reads = 0;
    const read = oncePerTurn(() => {
      events.push("read");
      return ++reads;
    });
    const answers = [read(), read()];
    events.push("third call");
    answers.push(read());
    expect(await Promise.all(answers)).toEqual([1, 1, 1]);
    expect(events).toEqual(["third call", "read"]);
  });

  it("a call made after a read started waits for a read of its own, which sees what changed in between", async () => {
    let value = "before";
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = oncePerTurn(async () => {
      const seen = value;
      await gate;
      return seen;
    });
    const first = read();
    await new Promise((resolve) => setImmediate(resolve));
    // The first read is in flight (it saw "before"); a change is committed, then a new call comes.
    value = "after";
    const second = read();
    release();
    expect(await first).toBe("before");
    expect(await second).toBe("after");
  });

  it("a read that throws fails the calls of its turn, and the next turn reads again", async () => {
    let fail = true;
    const read = oncePerTurn(() => {
      if (fail) throw new Error("database unreachable");
      return "epoch";
    });
    await expect(read()).rejects.toThrow("database unreachable");
    fail = false;
    await expect(read()).resolves.toBe("epoch");
  });
});

describe("batchPerTurn: one call carries every input waiting for it", () => {
  it("inputs of one turn go in one call, in order, and each caller gets its own answer", async () => {
    const calls: number[][] = [];
    const double = batchPerTurn(async (inputs: number[]) => {
      calls.push(inputs);
      return inputs.map((n) => n * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it("at most one call is in flight: inputs that come meanwhile wait and then go together", async () => {
    const calls: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const echo = batchPerTurn(async (inputs: string[]) => {
      calls.push(inputs);
      if (calls.length === 1) await gate;
      return inputs;
    });
    const first = echo("a");
    await new Promise((resolve) => setImmediate(resolve));
    const later = [echo("b"), echo("c")];
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([["a"]]);
    release();
    expect(await first).toBe("a");
    expect(await Promise.all(later)).toEqual(["b", "c"]);
    expect(calls).toEqual([["a"], ["b", "c"]]);
  });

  it("a failed call fails each of its callers, and later inputs are still served", async () => {
    let fail = true;
    const run = batchPerTurn(async (inputs: string[]) => {
      if (fail) throw new Error("redis timed out");
      return inputs;
    });
    const failed = [run("a"), run("b")].map((p) => p.catch((error: Error) => error.message));
    expect(await Promise.all(failed)).toEqual(["redis timed out", "redis timed out"]);
    fail = false;
    await expect(run("c")).resolves.toBe("c");
  });
});

describe("oncePerTurnOneInFlight: one read a turn, at most one out", () => {
  it("calls while a read is out share the next read, which starts as that one ends, in step with batchPerTurn", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    const epoch = oncePerTurnOneInFlight(async () => {
      const n = ++reads;
      order.push(`read ${n}`);
      if (n === 1) await gate;
      return n;
    });
    const script = batchPerTurn(async (inputs: string[]) => {
      order.push(`script ${inputs.join(",")}`);
      if (inputs[0] === "a") await gate;
      return inputs;
    });
    const first = [epoch(), epoch(), script("a")];
    await new Promise((resolve) => setImmediate(resolve));
    const later = [epoch(), script("b"), epoch(), script("c")];
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["read 1", "script a"]);
    release();
    expect(await Promise.all(first)).toEqual([1, 1, "a"]);
    expect(await Promise.all(later)).toEqual([2, "b", 2, "c"]);
    // Both second calls start only once the first ones ended (in either order).
    expect(order.slice(0, 2)).toEqual(["read 1", "script a"]);
    expect(order.slice(2).sort()).toEqual(["read 2", "script b,c"]);
  });

  it("a read that fails fails its callers, and the next call reads again", async () => {
    let fail = true;
    const epoch = oncePerTurnOneInFlight(async () => {
      if (fail) throw new Error("redis timed out");
      return "e";
    });
    await expect(epoch()).rejects.toThrow("redis timed out");
    fail = false;
    await expect(epoch()).resolves.toBe("e");
  });
});
