/**
 * Closes what a builder opened, last opened first. Each part registers its close as soon as it is
 * built, so a step that fails closes the parts before it (the store, the Redis client, the worker
 * threads) instead of leaving them open. It has the shape of AsyncDisposableStack, which Node 24
 * has and Node 22, still supported (src/supported-node.js), lacks.
 */
export class ClosingStack {
  #closes: Array<() => unknown> = [];

  /** Registers a close, to run before every close registered earlier. */
  defer(close: () => unknown): void {
    this.#closes.push(close);
  }

  /** The builder succeeded: its closes go to a new stack its caller owns, and this one is left empty. */
  move(): ClosingStack {
    const moved = new ClosingStack();
    moved.#closes = this.#closes;
    this.#closes = [];
    return moved;
  }

  /** Runs every close, last registered first, each even when one before it failed; then throws the first failure. */
  async disposeAsync(): Promise<void> {
    const closes = this.#closes.reverse();
    this.#closes = [];
    const failures: unknown[] = [];
    for (const close of closes) {
      try {
        await close();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
