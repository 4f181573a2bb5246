/**
 * What `authenticate` is given to check a key: the verdicts kept in process and how to read the
 * key tables' epoch that says whether they still hold.
 */
import { createKeyEpochReader, createKeyFinder } from "../store/api-keys.repository.ts";
import type { Store } from "../store/connect.ts";
import { KeyVerdicts, type KeyEpoch } from "./key-verdicts.ts";
import { oncePerTurn } from "../per-turn.ts";

export interface KeyCheck {
  verdicts: KeyVerdicts;
  /**
   * The epoch, read after the request asking for it arrived and before any key it vouches for. One
   * read answers every request of an event-loop turn (src/per-turn.ts).
   */
  epoch(): Promise<KeyEpoch>;
  /**
   * Call after committing a key or organization change. The database's own epoch moved with the
   * commit; this also tells instances that learn the epoch from Redis (create-rate-limiter.ts).
   */
  changed(): Promise<void>;
  close(): void;
}

export function createKeyCheck(store: Store, announce: () => Promise<void> = async () => {}): KeyCheck {
  const reader = createKeyEpochReader(store);
  return { verdicts: new KeyVerdicts(createKeyFinder(store)), epoch: oncePerTurn(() => reader.read()), changed: announce, close: () => reader.close() };
}
