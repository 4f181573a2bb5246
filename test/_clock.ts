/** The clock a test service reads (src/clock.ts): the system's time until a test sets another. */
import type { Clock } from "../src/clock.ts";

export class TestClock implements Clock {
  #source: (() => Date) | null = null;

  now(): Date {
    return this.#source?.() ?? new Date();
  }

  /** Fixes the time at a Date, or makes it follow a function; null gives back the system's time. */
  set(at: Date | (() => Date) | null): void {
    this.#source = at === null ? null : typeof at === "function" ? at : () => new Date(at.getTime());
  }

  /** Moves the time `ms` forward: a fixed time moves, a followed one (the system's included) runs that far ahead from now on. */
  advance(ms: number): void {
    const source = this.#source;
    this.#source = () => new Date((source?.() ?? new Date()).getTime() + ms);
  }
}
