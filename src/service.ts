/**
 * The composition root: the one place the running service is built, in one order, and stopped in
 * the reverse order (docs/architecture.md):
 *
 *   runtime: store (migrated) and rate source (src/runtime.ts, shared with the CLI) → signing
 *   secrets sealed → key check and rate limits → boundary index, worker pool and lookup pipeline
 *   (with the batch runner) → the h3 app with the dashboard and the API reference mounted →
 *   actors: usage counter, batch runner, delivery actor, scheduler (started by startService)
 *
 * Each part gets what it needs as it is built, so nothing is assembled in pieces or swapped in
 * later. Each part's close is registered as the part is built (src/closing-stack.ts), so a step
 * that fails closes what was built before it. One clock (src/clock.ts) is read by every part. The CLI's `serve` and the tests start the
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
import { limitDefaults } from "./organization-limits.ts";
import { ClosingStack } from "./closing-stack.ts";
import type { RateData } from "./freshness/rate-data.ts";
import { readDataStatus } from "./freshness/read-data-status.ts";
import { registerDashboard } from "./dashboard/routes.ts";
import { findPolygonFiles } from "./geo/polygon-files.ts";
import { createApp } from "./http/app.ts";
import { createReturnService } from "./returns/return-service.ts";
import type { ApiContext } from "./http/context.ts";
import { LedgerService } from "./ledger/ledger-service.ts";
import { rateDataVersion, TaxService } from "./ledger/tax-service.ts";
import { createRateLimiter } from "./http/create-rate-limiter.ts";
import { gatePipelinedRequests } from "./http/pipeline-gate.ts";
import { applyServerLimits } from "./http/server-limits.ts";
import { backgroundOptionsFrom, createBackground, type Background } from "./scheduled/background.ts";
import { jsonLogger, type Logger } from "./log.ts";
import { serveMetrics } from "./metrics.ts";
import { serviceMetrics } from "./service-metrics.ts";
import { registerReference } from "./reference-page/routes.ts";
import { readinessOf } from "./http/routes/readyz.ts";
import { openRuntime } from "./runtime.ts";
import type { Store } from "./store/connect.ts";
import { UsageRecorder } from "./usage/usage-recorder.ts";
import { smtpMailer } from "./mail/mailer.ts";
import { secretBoxFrom, SECRETS_KEY_UNSET_WARNING } from "./webhooks/secret-box.ts";
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
  /** Webhook delivery and scheduled jobs: built by createService, started with the other actors by start(). */
  background: Background;
  /**
   * Starts the actors: the usage counter, the batch job runner, the delivery actor and the scheduler (startService calls it).
   * Resolves once the start-up work it began in the background (the reference page's assets compressed) is done.
   */
  start(): Promise<void>;
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
  // Each part's close is registered as the part is built: a step that fails closes what was built before it.
  const closing = new ClosingStack();
  try {
    // The store, and what guards every request: key verdicts and rate limits.
    const runtime = await openRuntime(config, { log, clock });
    closing.defer(() => runtime.close());
    const { store } = runtime;
    const secrets = secretBoxFrom(config);
    // Said once, at start: the documented default is a risk an operator should choose knowingly (docs/guides/webhooks-and-jobs.md, "Secrets at rest").
    if (!config.secretsKey) log({ level: "warn", msg: SECRETS_KEY_UNSET_WARNING });
    const { sealed, unreadable } = await sealStoredSecrets(store.db, secrets);
    if (sealed > 0) log({ level: "info", msg: "sealed stored webhook signing secrets with SECRETS_KEY", count: sealed });
    if (unreadable > 0) log({ level: "error", msg: "stored webhook signing secrets that neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS opens", count: unreadable });
    // With REDIS_URL, the one connection the rate limits and the key epoch share (src/store/redis.ts); the driver is loaded only then.
    const redis = config.redis ? (await import("./store/redis.ts")).openRedis(config.redis.url, config.redis.commandTimeoutMs) : undefined;
    if (redis) closing.defer(async () => (await import("./store/redis.ts")).closeRedis(redis));
    const limits = await createRateLimiter(config, log, redis);
    closing.defer(() => limits.close());
    const keys = createKeyCheck(store, redis && config.redis ? { redis, keyPrefix: config.redis.keyPrefix } : undefined);
    closing.defer(() => keys.close());

    // The rate source: shipped periods with the reconciled ones laid over them.
    const { shipped: data, rates } = await runtime.rateSource();
    const freshness = () => rates.recheck();

    // The lookup room: the state's boundary file, the worker pool, the pipeline and the batch runner.
    const boundaries = openBoundaryIndex(store, { clock });
    closing.defer(() => boundaries.close());
    await boundaries.refresh();
    // With Redis, the Census batch requests of every instance share one cap (src/geo/redis-batch-slots.ts).
    const batchSlots =
      redis && config.redis
        ? new (await import("./geo/redis-batch-slots.ts")).RedisBatchSlots({ redis, keyPrefix: config.redis.keyPrefix, limit: config.geocoder.batch.concurrency, log })
        : undefined;
    const lookups = createAddressLookups(
      config,
      store,
      {
        now,
        freshness,
        rates: () => ({ table: rates.table, zips: data.zips, overlay: rates.overlay }),
        shipped: { table: data.table, zips: data.zips },
        rateDataVersion: () => rateDataVersion(data.meta.rate_file, rates.overlay),
      },
      boundaries,
      log,
      batchSlots,
    );
    closing.defer(() => lookups.close());
    const polygons = findPolygonFiles(config.geoDataDir);
    // A fresh install has no polygons (they are never shipped): say at once why /readyz will answer 503.
    if (!polygons.available) {
      log({ level: "warn", msg: "no boundary polygons: address and lat/lon lookups answer 503, and so does /readyz, until they are loaded; county and ZIP lookups work", reason: polygons.reason });
    }

    // Actors, built now and started by startService.
    const usage = new UsageRecorder(store.db, { flushIntervalMs: config.usageFlushMs, log, now, ...(store.sqlite && { sqlite: store.sqlite }) });
    closing.defer(() => usage.stop());
    const background = createBackground({ ...backgroundOptionsFrom(config, store, rates, secrets), clock, log });
    closing.defer(() => background.stop());
    const webhooks = createWebhookService({ db: store.db, now, secrets, privateTargets: config.webhooks.privateTargets, wakeDeliveries: () => background.actor.wake(), webhooksPerOrganization: config.webhooksPerOrganization });
    const mailer = config.mail ? smtpMailer(config.mail) : null;
    if (mailer) closing.defer(() => mailer.close());
    // Said once, at start, either way: whether a customer who forgot a password gets a mail is the operator's to see, not to find out from a customer.
    log(
      config.mail
        ? { level: "info", msg: "mail is configured: password reset links are mailed", smtp_host: new URL(config.mail.smtpUrl).host, from: config.mail.from }
        : { level: "info", msg: "mail is off (SMTP_URL unset): the dashboard cannot mail password reset links" },
    );
    const dataStatus = () =>
      readDataStatus({ db: store.db, freshness, polygons, zctaVintage: data.meta.zcta_vintage, staleAfterDays: config.reconcileStaleAfterDays }, now());

    const returns = createReturnService({ db: store.db, now, rates: () => rates.table });
    // The tax on a sale and its ledger (src/ledger/): over the lookup service and the live rate table.
    const taxService = new TaxService({
      db: store.db,
      lookups: lookups.service,
      table: () => rates.table,
      freshness,
      rateDataVersion: () => rateDataVersion(data.meta.rate_file, rates.overlay),
      now,
    });
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
      freshness,
      dataStatus,
      lookups,
      returns,
      tax: { service: taxService, ledger: new LedgerService({ db: store.db, tax: taxService, now }) },
    };
    const app = createApp(context, log, { slowMs: config.slowRequestMs, everyRequest: config.logLevel === "debug" }, config.metrics !== null);
    registerDashboard(
      app,
      {
        db: store.db,
        now,
        rateLimits: config.rateLimits,
        signUpLimit: config.signUpLimit,
        trustedProxies: config.trustedProxies,
        usage,
        webhooks,
        returns,
        accounts: createAccountService({ db: store.db, now, keyChanged: () => keys.changed(), limitDefaults: limitDefaults(config) }),
        dataStatus,
        mail: mailer && config.publicUrl ? { mailer, publicUrl: config.publicUrl } : null,
        supportContact: config.supportContact,
        readiness: readinessOf(context),
      },
      log,
    );
    const reference = registerReference(app);

    const built = closing.move();
    const start = () => {
      usage.start();
      lookups.runner.start();
      background.start();
      return reference.warm();
    };
    return { app, context, store, rates, clock, background, start, close: () => built.disposeAsync() };
  } catch (error) {
    // The step that failed is what the operator must see; a close failing after it would only hide it.
    await closing.disposeAsync().catch(() => {});
    throw error;
  }
}

/** The configured port is in use: an operator's mistake to fix, said in one line. */
export class PortTakenError extends Error {
  constructor(config: Pick<Config, "port" | "host">) {
    super(`port ${config.port} on ${config.host} is taken by another program; set PORT to a free port (PORT=3001 npm start), or PORT=0 for any free one`);
  }
}

export interface RunningService extends Service {
  url: string;
  listener: Listener;
  /** The Prometheus listener's /metrics URL, or null when METRICS_PORT is unset. */
  metricsUrl: string | null;
  /** Resolves once start-up's background work is done: the boundary polygons loaded (or found unusable) and the reference assets compressed. */
  warmed: Promise<void>;
}

export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  const service = await createService(config, options);
  // The port asked for or none: listhen's port finder would otherwise fall back to a random one (and print that it did).
  const listener = await listen(gatePipelinedRequests(toNodeHandler(service.app)), {
    port: { port: config.port, alternativePortRange: [config.port, config.port], random: config.port === 0, verbose: false },
    hostname: config.host,
    showURL: false,
    autoClose: false,
    qr: false,
  }).catch(async (error: unknown) => {
    await service.close();
    throw (error as { name?: unknown }).name === "GetPortError" ? new PortTakenError(config) : error;
  });
  if (config.port !== 0 && listener.address.port !== config.port) {
    await listener.close();
    await service.close();
    throw new PortTakenError(config);
  }
  applyServerLimits(listener.server as Server, config.server, options.log ?? jsonLogger(config.logLevel));
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${listener.address.port}`;
  // Metrics on a listener of their own (loopback by default), never on the public port.
  const { context } = service;
  const metrics = config.metrics
    ? await serveMetrics(config.metrics.host, config.metrics.port, serviceMetrics({ db: context.db, now: context.now, lookups: context.lookups, freshness: context.freshness })).catch(async (error: unknown) => {
        await listener.close();
        await service.close();
        throw error;
      })
    : null;
  // The boundary polygons load into the worker threads now, in the background; /readyz says "loading" until they are in.
  const warmed = Promise.all([service.context.lookups.pool.warm(), service.start()]).then(() => {});
  return {
    ...service,
    url,
    listener,
    metricsUrl: metrics?.url ?? null,
    warmed,
    close: async () => {
      await metrics?.close();
      await listener.close();
      await service.close();
    },
  };
}
