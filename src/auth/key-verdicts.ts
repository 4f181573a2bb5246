/**
 * Key verdicts kept in process, so that a request does not read the database to learn what the
 * last request with the same key already learned. A verdict is trusted only while the key tables'
 * epoch (migration 070) is the one it was read at; the epoch is read BEFORE the key, so a change
 * committed between the two leaves the verdict tagged with the older epoch and the next request
 * reads the key again. A verdict read without an epoch (`undefined`) is never trusted again.
 */
import { LRUCache } from "lru-cache";
import type { KeyFinder } from "../store/api-keys.repository.ts";
import { verifyKey, type Verification } from "./key-service.ts";

export type KeyEpoch = string | undefined;

export interface CachedVerdict {
  verdict: Verification;
  epoch: KeyEpoch;
}

export class KeyVerdicts {
  // Keyed by the presented key itself: a hit costs no hashing. Bounded, so a flood of made-up keys cannot grow it.
  readonly #cache = new LRUCache<string, CachedVerdict>({ max: 10_000 });
  readonly #findKeys: KeyFinder;

  constructor(findKeys: KeyFinder) {
    this.#findKeys = findKeys;
  }

  /** What is cached for `key`, whatever its epoch. */
  peek(key: string): CachedVerdict | undefined {
    return this.#cache.get(key);
  }

  /** The verdict for `key` at `epoch`: from the cache when it was read at that epoch, else from the store. */
  async check(key: string, epoch: KeyEpoch): Promise<Verification> {
    const hit = this.#cache.get(key);
    if (hit && epoch !== undefined && hit.epoch === epoch) return hit.verdict;
    return this.read(key, epoch);
  }

  /** Reads the verdict from the store; `epoch` must have been read before this call. */
  async read(key: string, epoch: KeyEpoch): Promise<Verification> {
    const verdict = await verifyKey(this.#findKeys, key);
    // A malformed key never reaches the store: checking its checksum again is cheaper than keeping it.
    if (verdict.ok || verdict.reason !== "malformed") this.#cache.set(key, { verdict, epoch });
    return verdict;
  }
}
