import { queueOptionsSymbol, type PiscinaTask, type TaskQueue } from "piscina";

/**
 * The batch lane's queue: a task a client is waiting on (an inline list, an upload to accept) goes
 * before the job groups queued there, so it waits at most for the group a thread is working on.
 */
export class WaitingClientsFirst implements TaskQueue {
  readonly #first: PiscinaTask[] = [];
  readonly #rest: PiscinaTask[] = [];

  get size(): number {
    return this.#first.length + this.#rest.length;
  }

  #list(task: PiscinaTask): PiscinaTask[] {
    const options = task[queueOptionsSymbol] as { clientWaits?: boolean } | null;
    return options?.clientWaits ? this.#first : this.#rest;
  }

  push(task: PiscinaTask): void {
    this.#list(task).push(task);
  }

  unshift(task: PiscinaTask): void {
    this.#list(task).unshift(task);
  }

  shift(): PiscinaTask | null {
    return this.#first.shift() ?? this.#rest.shift() ?? null;
  }

  remove(task: PiscinaTask): void {
    const list = this.#list(task);
    const at = list.indexOf(task);
    if (at >= 0) list.splice(at, 1);
  }
}

/** What a task carries for the queue (read by it, never copied to the thread: structured clone drops symbol keys). */
export function clientWaiting<T extends object>(input: T): T {
  return Object.assign(input, { [queueOptionsSymbol]: { clientWaits: true } });
}
