/**
 * The composition root: the one place the running service is built, in one order, and stopped in
 * the reverse order (docs/architecture.md):
 *
 *   store (migrated; signing secrets sealed) → key check and rate limits → rate source
 *   → boundary index, worker pool and lookup pipeline (with the batch runner) → the h3 app with the
 *   dashboard and the API reference mounted → actors: usage counter, delivery actor, scheduler
 *
 * Each part gets what it needs as it is built, so nothing is assembled in pieces or swapped in
 * later. One clock (src/clock.ts) is read by every part. The CLI's `serve` and the tests start the
 * service the same way.
 */
import type { Server } from "node:http";
import type { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { listen, type Listener } from "listhen";
import { createAccountService } from "./accounts/account-service.ts";
import { createKeyCheck } from "./auth/key-check.ts";
import { createAddressLookups } from "./batch/address-lookups.ts";
import { openBoundaryIndex } from "./boundaries/boundary-index.ts";
import { systemClock, type Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { RateData } from "./currency/rate-data.ts";
import { readDataStatus } from "./currency/read-data-status.ts";
import { registerDashboard } from "./dashboard/routes.ts";
import { findBoundaryFiles } from "./geo/boundary-files.ts";
import { createApp } from "./http/app.ts";
import type { ApiContext } from "./http/context.ts";
import { createRateLimiter } from "./http/create-rate-limiter.ts";
import { applyServerLimits } from "./http/server-limits.ts";
import { backgroundOptionsFrom, createBackground, type Background } from "./jobs/background.ts";
import { loadShippedData } from "./load-data.ts";
import { jsonLogger, type Logger } from "./log.ts";
import { registerReference } from "./reference/routes.ts";
import { openStore, type Store } from "./store/connect.ts";
import { migrateToLatest } from "./store/migrate.ts";
import { UsageRecorder } from "./usage/usage-recorder.ts";
import { secretBoxFrom } from "./webhooks/secret-box.ts";
import { createWebhookService } from "./webhooks/webhook-service.ts";
import { sealStoredSecrets } from "./webhooks/webhook-secrets.ts";

export interface Service {
  app: H3;
  context: ApiContext;
  store: Store;
  /** The rate table lookups answer from, and how current it is (shipped + reconciled). */
  rates: RateData;
  /** The clock every part reads (systemClock unless the caller gave one). */
  clock: Clock;
  /** Webhook delivery and scheduled jobs: built by createService, started by startService. */
  background: Background;
  close(): Promise<void>;
}

export interface ServiceOptions {
  log?: Logger;
  /** Tests pass a clock they can move; production reads the system's. */
  clock?: Clock;
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const log = options.log ?? jsonLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();

  // The store, and what guards every request: key verdicts and rate limits.
  const data = loadShippedData(config.dataDir);
  const store = openStore(config.databaseUrl);
  await migrateToLatest(store.db);
  const secrets = secretBoxFrom(config);
  const { sealed, unreadable } = await sealStoredSecrets(store.db, secrets);
  if (sealed > 0) log({ level: "info", msg: "sealed stored webhook signing secrets with SECRETS_KEY", count: sealed });
  if (unreadable > 0) log({ level: "error", msg: "stored webhook signing secrets that neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS opens", count: unreadable });
  // With REDIS_URL, the one connection the rate limits and the key epoch share (src/store/redis.ts); the driver is loaded only then.
  const redis = config.redis ? (await import("./store/redis.ts")).openRedis(config.redis.url, config.redis.commandTimeoutMs) : undefined;
  const limits = await createRateLimiter(config, log, redis);
  const keys = createKeyCheck(store, redis && config.redis ? { redis, keyPrefix: config.redis.keyPrefix } : undefined);

  // The rate source: shipped periods with the reconciled ones laid over them.
  const rates = new RateData({ db: store.db, shipped: data.table, shippedCurrency: data.meta });
  await rates.refresh();
  const currency = () => rates.currency();

  // The lookup room: the state's boundary file, the worker pool, the pipeline and the batch runner.
  const boundaries = openBoundaryIndex(store);
  await boundaries.refresh();
  const lookups = createAddressLookups(
    config,
    store,
    { now, currency, rates: () => ({ table: rates.table, zips: data.zips, overlay: rates.overlay }), shipped: { table: data.table, zips: data.zips } },
    boundaries,
    log,
  );
  const polygons = findBoundaryFiles(config.geoDataDir);
  // A fresh install has no polygons (they are never shipped): say at once why /readyz will answer 503.
  if (!polygons.available) {
    log({ level: "warn", msg: "no boundary polygons: address and lat/lon lookups answer 503, and so does /readyz, until they are loaded; county and ZIP lookups work", reason: polygons.reason });
  }

  // Actors, built now and started by startService (the usage counter and the batch runner at once).
  const usage = new UsageRecorder(store.db, { flushIntervalMs: config.usageFlushMs, log, now });
  const background = createBackground({ ...backgroundOptionsFrom(config, store, rates), clock, log });
  const webhooks = createWebhookService({ db: store.db, now, secrets, privateTargets: config.webhooks.privateTargets, wakeDeliveries: () => background.actor.wake(), webhooksPerOrganization: config.webhooksPerOrganization });
  const dataStatus = () =>
    readDataStatus({ db: store.db, currency, polygons, zctaVintage: data.meta.zcta_vintage, staleAfterDays: config.reconcileStaleAfterDays }, now());

  const context: ApiContext = {
    config,
    rates,
    zips: data.zips,
    db: store.db,
    keys,
    limiter: limits.limiter,
    usage,
    webhooks,
    now,
    currency,
    dataStatus,
    lookups,
  };
  const app = createApp(context, log, { slowMs: config.slowRequestMs, everyRequest: config.logLevel === "debug" });
  registerDashboard(
    app,
    {
      db: store.db,
      now,
      rateLimits: config.rateLimits,
      signUpLimit: config.signUpLimit,
      usage,
      webhooks,
      accounts: createAccountService({ db: store.db, now, keyChanged: () => keys.changed(), activeKeysPerOrganization: config.activeKeysPerOrganization }),
      dataStatus,
    },
    log,
  );
  registerReference(app);
  usage.start();

  const close = async () => {
    await background.stop();
    await usage.stop();
    await lookups.close();
    await boundaries.close();
    keys.close();
    await limits.close();
    if (redis) await (await import("./store/redis.ts")).closeRedis(redis);
    await store.close();
  };
  return { app, context, store, rates, clock, background, close };
}

export interface RunningService extends Service {
  url: string;
  listener: Listener;
}

export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const service = await createService(config, options);
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
  applyServerLimits(listener.server as Server, config.server, options.log ?? jsonLogger(config.logLevel));
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
