/**
 * The key epoch of an instance that shares Redis: Redis's epoch and the database's together, so a
 * change is seen whichever way it was made. Redis's moves when a process that has REDIS_URL
 * announces a change (redis-key-epoch.ts), at once; the database's moves with every commit that
 * changes a verdict, by its triggers (migration 070), whoever made it: a CLI run without REDIS_URL
 * (whose revocations were otherwise never seen by the instances), a hand-typed UPDATE.
 *
 * The database's epoch is not read per request (the lookup's hot path would pay a round trip on
 * PostgreSQL): it is polled, one read in flight at a time, when the last read started more than
 * POLL_MS ago and a request asks. A value whose read started more than STALE_MS ago is never
 * trusted: the epoch is then unknown (undefined), so every key is read from the database until the
 * next read answers. A change committed at time t is therefore seen by every request that starts
 * after t + STALE_MS, and, under steady traffic, after about t + POLL_MS
 * (docs/operations/several-instances.md).
 */
import type { KeyEpochSource } from "./key-epoch.ts";
import type { KeyEpoch } from "./key-verdicts.ts";

/** How old the database's epoch may be before a request asks for a fresh read. */
export const POLL_MS = 250;
/** How old it may be and still vouch for cached verdicts: the bound on how late a change made without Redis is seen. */
export const STALE_MS = 1000;

export interface PolledEpochOptions {
  pollMs?: number;
  staleMs?: number;
  /** Milliseconds, monotonic (tests move it). */
  now?: () => number;
}

/** The database's epoch, read at most once per `pollMs` while asked for, and unknown once older than `staleMs`. */
export function polledKeyEpoch(source: KeyEpochSource, options: PolledEpochOptions = {}): KeyEpochSource {
  const { pollMs = POLL_MS, staleMs = STALE_MS, now = () => performance.now() } = options;
  let value: KeyEpoch;
  /** When the read that gave `value` started. */
  let readAt = Number.NEGATIVE_INFINITY;
  let inFlight = false;
  const poll = () => {
    inFlight = true;
    const started = now();
    let reading: Promise<KeyEpoch>;
    try {
      reading = Promise.resolve(source.read());
    } catch (error) {
      reading = Promise.reject(error);
    }
    void reading
      .then(
        (epoch) => {
          if (started > readAt) [value, readAt] = [epoch, started];
        },
        () => {},
      )
      .finally(() => {
        inFlight = false;
      });
  };
  return {
    read: () => {
      const age = now() - readAt;
      if (age >= pollMs && !inFlight) poll();
      return age <= staleMs ? value : undefined;
    },
    announce: () => source.announce(),
    close: () => source.close(),
  };
}

const joined = (shared: KeyEpoch, own: KeyEpoch): KeyEpoch => (shared === undefined || own === undefined ? undefined : `${shared}|${own}`);

/** Both epochs, as one value: unknown when either is. Redis's is read first, so its GET still leaves in the turn's first write. */
export function storeAndRedisKeyEpoch(redis: KeyEpochSource, store: KeyEpochSource): KeyEpochSource {
  return {
    read: () => {
      const shared = redis.read();
      const own = store.read();
      if (own instanceof Promise) return Promise.all([shared, own]).then(([s, o]) => joined(s, o));
      return shared instanceof Promise ? shared.then((s) => joined(s, own)) : joined(shared, own);
    },
    announce: () => redis.announce(),
    close: () => {
      redis.close();
      store.close();
    },
  };
}
