/**
 * Reads shared by every caller in the same turn of the event loop.
 *
 * Why it is safe for the key epoch: Node reads sockets only in the loop's poll phase and runs
 * `setImmediate` callbacks in the check phase right after it. A caller's request was therefore
 * read off its socket before the read that answers it starts, so a change committed before that
 * request was sent is seen by it, exactly as if the request had read on its own. The pending read
 * is forgotten as it starts: a caller that comes while it is in flight (a PostgreSQL query, a
 * Redis round trip) waits for a read of its own.
 *
 * Why: under load one turn serves tens of requests (about 40 per `epoll_wait` at 50 connections),
 * and a read per request was a system call or a round trip per request.
 */

/** One read of `read` answers every call made before it starts. */
export function oncePerTurn<T>(read: () => T | Promise<T>): () => Promise<T> {
  let next: Promise<T> | null = null;
  return () =>
    (next ??= new Promise<T>((resolve, reject) =>
      setImmediate(() => {
        next = null;
        try {
          resolve(read());
        } catch (error) {
          reject(error);
        }
      }),
    ));
}

/**
 * One call of `run` with the inputs of every call made before it starts; `run` answers each input
 * in order. If it fails, every caller of that batch gets the failure. At most one call is in
 * flight: calls made meanwhile wait for it to end and then go together, so a round trip carries
 * everything that arrived while the previous one was out (a turn's worth when `run` is quick).
 */
export function batchPerTurn<I, O>(run: (inputs: I[]) => Promise<O[]>): (input: I) => Promise<O> {
  let waiting: Array<{ input: I; resolve: (output: O) => void; reject: (error: unknown) => void }> = [];
  let busy = false;
  const flush = async () => {
    const batch = waiting;
    waiting = [];
    busy = true;
    try {
      const outputs = await run(batch.map((call) => call.input));
      batch.forEach((call, i) => call.resolve(outputs[i]!));
    } catch (error) {
      for (const call of batch) call.reject(error);
    } finally {
      busy = false;
      if (waiting.length > 0) setImmediate(flush);
    }
  };
  return (input) =>
    new Promise<O>((resolve, reject) => {
      if (waiting.push({ input, resolve, reject }) === 1 && !busy) setImmediate(flush);
    });
}

/**
 * Like oncePerTurn, with at most one read in flight: callers that come while one is out share the
 * next, which starts as that one ends. batchPerTurn keeps the same pace, so two of them over one
 * connection (the Redis key epoch and the rate-limit script) start in the same turn and travel together.
 */
export function oncePerTurnOneInFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | null = null;
  let busy = false;
  let queued: (() => void) | null = null;
  const settled = () => {
    busy = false;
    const start = queued;
    queued = null;
    if (start) setImmediate(start);
  };
  return () =>
    (next ??= new Promise<T>((resolve, reject) => {
      const start = () => {
        next = null;
        busy = true;
        read().then(resolve, reject).finally(settled);
      };
      if (busy) queued = start;
      else setImmediate(start);
    }));
}
