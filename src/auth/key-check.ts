/**
 * What the API is given to check a key: the verdicts kept in process and the key-epoch source that
 * says whether they still hold, chosen by the store (or Redis, when the instances share it).
 */
import type { Redis } from "ioredis";
import { createKeyFinder } from "../store/api-keys.repository.ts";
import type { Store } from "../store/connect.ts";
import { oncePerTurn, oncePerTurnOneInFlight } from "../per-turn.ts";
import type { KeyEpochSource } from "./key-epoch.ts";
import { postgresKeyEpoch } from "./postgres-key-epoch.ts";
import { redisKeyEpoch } from "./redis-key-epoch.ts";
import { sqliteKeyEpoch } from "./sqlite-key-epoch.ts";
import { polledKeyEpoch, storeAndRedisKeyEpoch } from "./store-and-redis-key-epoch.ts";
import { KeyVerdicts, type KeyEpoch } from "./key-verdicts.ts";

export interface KeyCheck {
  verdicts: KeyVerdicts;
  /**
   * The epoch, read after the request asking for it arrived and before any key it vouches for. One
   * read answers every request of an event-loop turn (src/per-turn.ts).
   */
  epoch(): Promise<KeyEpoch>;
  /** Call after committing a key or organization change (see KeyEpochSource.announce). */
  changed(): Promise<void>;
  close(): void;
}

/**
 * Where the instances share Redis, the epoch is the one kept there (a change made through any instance or a CLI
 * with REDIS_URL moves it at once) joined with the database's (a change committed by anyone moves it; polled on
 * PostgreSQL, store-and-redis-key-epoch.ts).
 */
export interface SharedKeyEpoch {
  redis: Redis;
  keyPrefix: string;
}

function storeKeyEpoch(store: Store): KeyEpochSource {
  return store.sqlite ? sqliteKeyEpoch(store.sqlite) : postgresKeyEpoch(store);
}

function keyEpochSource(store: Store, shared?: SharedKeyEpoch): KeyEpochSource {
  if (!shared) return storeKeyEpoch(store);
  // SQLite's own epoch costs a pread that touches no table: read it every time; PostgreSQL's is a round trip: polled.
  const own = store.sqlite ? storeKeyEpoch(store) : polledKeyEpoch(storeKeyEpoch(store));
  return storeAndRedisKeyEpoch(redisKeyEpoch(shared.redis, shared.keyPrefix), own);
}

export function createKeyCheck(store: Store, shared?: SharedKeyEpoch): KeyCheck {
  const source = keyEpochSource(store, shared);
  return {
    verdicts: new KeyVerdicts(createKeyFinder(store)),
    // With Redis the read keeps the rate-limit script's pace (batchPerTurn), so each turn sends the two together and no more.
    epoch: shared ? oncePerTurnOneInFlight(async () => source.read()) : oncePerTurn(() => source.read()),
    changed: () => source.announce(),
    close: () => source.close(),
  };
}
