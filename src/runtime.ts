/**
 * What every Buckeye process opens first, the service and each CLI command alike: the store,
 * migrated, and the rate source (the shipped tables with the reconciled periods laid over them),
 * built once, and the key-change announcement a CLI command makes after a revocation (auth/).
 */
import { systemClock, type Clock } from "./clock.ts";
import { ClosingStack } from "./closing-stack.ts";
import type { Config } from "./config.ts";
import { RateData } from "./freshness/rate-data.ts";
import { loadShippedData, type ShippedData } from "./load-data.ts";
import { jsonLogger, type Logger } from "./log.ts";
import { openStore, type Store } from "./store/connect.ts";
import { migrateToLatest } from "./store/migrate.ts";

export interface RateSource {
  /** The shipped tables (DATA_DIR). */
  shipped: ShippedData;
  /** The shipped rates with what reconciliation recorded in the store laid over them. */
  rates: RateData;
}

export interface Runtime {
  store: Store;
  /** The clock every part built on this runtime reads: the service's, or the system's for a CLI command. */
  clock: Clock;
  /** The migrations this opening applied, oldest first (none when the schema was up to date). */
  applied: string[];
  /** Read on first use, so a command that needs no rates never reads DATA_DIR; built once. */
  rateSource(): Promise<RateSource>;
  /**
   * For a process that holds no Redis connection of its own (the CLI), after a committed key
   * revocation or organization status change: instances that learn the key epoch from Redis
   * (REDIS_URL) are told at once. Without REDIS_URL it does nothing: every instance also reads the
   * database's epoch, which the commit moved (within 1 s where they share Redis, auth/store-and-redis-key-epoch.ts).
   */
  announceKeyChange(): Promise<void>;
  close(): Promise<void>;
}

/** What the caller shares with the parts the runtime builds: the service passes its own; a CLI command takes the defaults. */
export interface RuntimeOptions {
  /** JSON lines on stderr at LOG_LEVEL unless given. */
  log?: Logger;
  /** The system's unless given (src/clock.ts). */
  clock?: Clock;
}

type RuntimeConfig = Pick<Config, "databaseUrl" | "dataDir" | "redis" | "logLevel">;

export async function openRuntime(config: RuntimeConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? jsonLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const closing = new ClosingStack();
  try {
    // The service answers on this connection's thread: the batch lane's connections run the WAL checkpoints (src/store/connect.ts).
    const store = openStore(config.databaseUrl, { checkpoints: false });
    closing.defer(() => store.close());
    const applied = ((await migrateToLatest(store.db)).results ?? []).map((r) => r.migrationName);
    let source: Promise<RateSource> | undefined;
    const owned = closing.move();
    return {
      store,
      clock,
      applied,
      rateSource: () =>
        (source ??= (async () => {
          const shipped = loadShippedData(config.dataDir);
          const rates = new RateData({ db: store.db, shipped: shipped.table, shippedFreshness: shipped.meta, log, clock });
          await rates.refresh();
          return { shipped, rates };
        })()),
      announceKeyChange: async () => {
        if (!config.redis) return;
        const { announceKeyChangeOnce } = await import("./auth/redis-key-epoch.ts");
        await announceKeyChangeOnce(config.redis);
      },
      close: () => owned.disposeAsync(),
    };
  } catch (error) {
    await closing.disposeAsync();
    throw error;
  }
}

/** Opens the runtime for one piece of work (a CLI command) and closes it after, however the work ends. */
export async function withRuntime<T>(config: RuntimeConfig, work: (runtime: Runtime) => Promise<T>, options: RuntimeOptions = {}): Promise<T> {
  const runtime = await openRuntime(config, options);
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
