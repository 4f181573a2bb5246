/** The batch lane's queue (src/lookup/lane-queue.ts), asked directly: the order tasks leave it in. */
import type { PiscinaTask } from "piscina";
import { describe, expect, it } from "vitest";
import { clientWaiting, WaitingClientsFirst } from "../src/lookup/lane-queue.ts";

let ids = 0;
/** A task as piscina queues it: what the queue reads of it is its queue options. */
function task(input: object): PiscinaTask {
  return { taskId: ids++, filename: "geo.js", name: "resolveChunks", created: 0, isAbortable: false, ...input } as unknown as PiscinaTask;
}

describe("the batch lane's queue: a task a client waits on goes before queued job groups", () => {
  it("an inline list queued after two job groups leaves first; the groups keep their order", () => {
    const queue = new WaitingClientsFirst();
    const [groupA, groupB, inline] = [task({}), task({}), task(clientWaiting({}))];
    queue.push(groupA);
    queue.push(groupB);
    queue.push(inline);
    expect(queue.size).toBe(3);
    expect([queue.shift(), queue.shift(), queue.shift(), queue.shift()]).toEqual([inline, groupA, groupB, null]);
  });

  it("a removed task (its caller gave up) never leaves the queue", () => {
    const queue = new WaitingClientsFirst();
    const [group, inline] = [task({}), task(clientWaiting({}))];
    queue.push(group);
    queue.push(inline);
    queue.remove(inline);
    expect(queue.size).toBe(1);
    expect(queue.shift()).toBe(group);
  });

  it("what marks a task is not part of what the thread receives: structured clone drops it", () => {
    const marked = clientWaiting({ chunks: [1, 2] });
    expect(structuredClone(marked)).toEqual({ chunks: [1, 2] });
    expect(Object.getOwnPropertySymbols(structuredClone(marked))).toHaveLength(0);
  });
});
