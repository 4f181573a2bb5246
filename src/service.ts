/**
 * Assembles the running service: store (migrated), shipped data, the h3 app, and a listening
 * socket through listhen. The CLI's `serve` and the tests start it the same way.
 */
import type { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { listen, type Listener } from "listhen";
import { createKeyCheck } from "./auth/key-check.ts";
import { createAddressLookups } from "./batch/address-lookups.ts";
import { openBoundaryIndex } from "./boundaries/probe.ts";
import type { Config } from "./config.ts";
import { readDataStatus } from "./currency/read-data-status.ts";
import { findBoundaryFiles } from "./geo/boundary-files.ts";
import { createApp } from "./http/app.ts";
import { jsonLogger, type Logger } from "./log.ts";
import type { ApiContext } from "./http/context.ts";
import { createRateLimiter } from "./http/create-rate-limiter.ts";
import { backgroundOptionsFrom, createBackground, type Background } from "./jobs/background.ts";
import { loadShippedData } from "./load-data.ts";
import { openStore, type Store } from "./store/connect.ts";
import { migrateToLatest } from "./store/migrate.ts";
import { secretBoxFrom } from "./webhooks/secret-box.ts";
import { sealStoredSecrets } from "./webhooks/webhook-secrets.ts";
import { UsageRecorder } from "./usage/usage-recorder.ts";

export interface Service {
  app: H3;
  context: ApiContext;
  store: Store;
  /** Webhook delivery and scheduled jobs: built by createService, started by startService. */
  background: Background;
  close(): Promise<void>;
}

export async function createService(config: Config, log: Logger = jsonLogger(config.logLevel)): Promise<Service> {
  const data = loadShippedData(config.dataDir);
  const store = openStore(config.databaseUrl);
  await migrateToLatest(store.db);
  const secrets = secretBoxFrom(config);
  const { sealed, unreadable } = await sealStoredSecrets(store.db, secrets);
  if (sealed > 0) log({ level: "info", msg: "sealed stored webhook signing secrets with SECRETS_KEY", count: sealed });
  if (unreadable > 0) log({ level: "error", msg: "stored webhook signing secrets that neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS opens", count: unreadable });
  const limits = await createRateLimiter(config, log);
  // The polygon files the worker threads load, as `data status` reports their vintages.
  const polygons = findBoundaryFiles(config.geoDataDir);
  const usage = new UsageRecorder(store.db, { flushIntervalMs: config.usageFlushMs, log, now: () => context.now() });
  // The state's boundary file, when one is imported: the first rungs of every address lookup's ladder.
  const boundaries = openBoundaryIndex(store);
  await boundaries.refresh();
  // The clock is read through the context, so a test that moves context.now moves the batch leases too.
  const lookups = createAddressLookups(config, store, { now: () => context.now(), currency: () => context.currency(), rates: () => context }, boundaries, log);
  const context: ApiContext = {
    config,
    table: data.table,
    zips: data.zips,
    db: store.db,
    keys: createKeyCheck(store, () => limits.announceKeyChange()),
    limiter: limits.limiter,
    usage,
    secrets,
    now: () => new Date(),
    currency: () => background.rateData.currency(),
    dataStatus: () =>
      readDataStatus(
        { db: store.db, currency: () => background.rateData.currency(), polygons, zctaVintage: data.meta.zcta_vintage, staleAfterDays: config.reconcileStaleAfterDays },
        context.now(),
      ),
    wakeDeliveries: () => background.actor.wake(),
    lookups,
  };
  usage.start();
  const background = createBackground({
    ...backgroundOptionsFrom(config, store, data),
    // ApiContext stays a mutable object: each reconciliation swaps in a table with the periods it recorded.
    onTable: (table) => {
      context.table = table;
    },
    clock: { now: () => context.now() },
    log,
  });
  await background.rateData.refresh();
  const close = async () => {
    await background.stop();
    await usage.stop();
    await context.lookups.close();
    await boundaries.close();
    await limits.close();
    context.keys.close();
    await store.close();
  };
  return { app: createApp(context, log, { slowMs: config.slowRequestMs, everyRequest: config.logLevel === "debug" }), context, store, background, close };
}

export interface RunningService extends Service {
  url: string;
  listener: Listener;
}

export async function startService(config: Config, log?: Logger): Promise<RunningService> {
  const service = await createService(config, log);
  const listener = await listen(toNodeHandler(service.app), {
    port: { port: config.port, alternativePortRange: [config.port, config.port] },
    hostname: config.host,
    showURL: false,
    autoClose: false,
    qr: false,
  });
  if (config.port !== 0 && listener.address.port !== config.port) {
    await listener.close();
    await service.close();
    throw new Error(`port ${config.port} on ${config.host} is taken`);
  }
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${listener.address.port}`;
  // The boundary polygons load into the worker threads now, in the background; /readyz says "loading" until they are in.
  void service.context.lookups.pool.warm();
  service.background.start();
  return {
    ...service,
    url,
    listener,
    close: async () => {
      await listener.close();
      await service.close();
    },
  };
}
