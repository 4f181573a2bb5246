/**
 * Configuration, read once from the environment, validated and frozen. Feature modules never
 * read process.env themselves: they receive the parts of this object they need.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { JobsConfig } from "./jobs/background.ts";
import { retryScheduleEnv, scheduleEnv } from "./jobs/env-schemas.ts";
import type { DeliverySettings } from "./webhooks/delivery-actor.ts";
import { REPO_ROOT } from "./repo-root.ts";
import { DEFAULT_RETRY_SCHEDULE } from "./webhooks/retry-schedule.ts";
import { PRIVATE_TARGET_KINDS, type PrivateTargetKind } from "./webhooks/address-guard.ts";

const repoRoot = `${REPO_ROOT}/`;

/** Boundary polygons are never committed: the shared data folder beside the checkout, else var/geo (where fetch-geo writes). */
const sharedGeoDir = join(REPO_ROOT, "..", "shared", "data", "geo");
const defaultGeoDataDir = existsSync(sharedGeoDir) ? sharedGeoDir : `${repoRoot}var/geo`;

const positiveInt = z.coerce.number().int().positive();

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/)/, "must start with sqlite: or postgres://")
    .default("sqlite:var/buckeye.sqlite"),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(10),
  ERRORS_URL: z.url().default("https://buckeye.dev/errors"),
  DATA_DIR: z.string().default(`${repoRoot}data`),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  GEO_DATA_DIR: z.string().min(1).default(defaultGeoDataDir),
  WORKER_THREADS: positiveInt.max(256).default(availableParallelism()),
  CENSUS_GEOCODER_URL: z.url().default("https://geocoding.geo.census.gov"),
  GEOCODER_TIMEOUT_MS: positiveInt.default(5000),
  GEOCODER_CACHE_SIZE: positiveInt.default(50_000),
  GEOCODER_FAILURE_THRESHOLD: positiveInt.default(5),
  GEOCODER_COOLDOWN_MS: positiveInt.default(30_000),
  GEOCODER_CONCURRENCY: positiveInt.max(1000).default(16),
  GEOCODER_BATCH_ROWS: positiveInt.max(10_000).default(10_000),
  GEOCODER_BATCH_CONCURRENCY: positiveInt.max(16).default(4),
  GEOCODER_BATCH_TIMEOUT_MS: positiveInt.default(600_000),
  GEOCODER_BATCH_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  BATCH_CHUNK_ROWS: positiveInt.max(10_000).default(500),
  BATCH_LEASE_MS: positiveInt.default(60_000),
  BATCH_POLL_MS: positiveInt.default(1000),
  TIGER_BASE_URL: z.url().default("https://www2.census.gov/geo/tiger"),
  USAGE_FLUSH_MS: z.coerce.number().int().positive().default(5000),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://").optional(),
  REDIS_KEY_PREFIX: z.string().default("buckeye:"),
  REDIS_TIMEOUT_MS: positiveInt.default(250),
  SLOW_REQUEST_MS: z.coerce.number().int().positive().default(500),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(30_000),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  WEBHOOK_RETRY_SCHEDULE: retryScheduleEnv(DEFAULT_RETRY_SCHEDULE),
  WEBHOOK_CONCURRENCY: positiveInt.max(1000).default(16),
  WEBHOOK_POLL_MS: positiveInt.default(1000),
  WEBHOOK_LEASE_MS: positiveInt.default(60_000),
  // Off by default: a webhook reaching loopback, private or link-local addresses makes the service a port scanner for anyone who can sign up.
  WEBHOOK_PRIVATE_TARGETS: z
    .string()
    .default("")
    .transform((list) => list.split(",").map((kind) => kind.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.enum(PRIVATE_TARGET_KINDS, { error: `each entry must be one of ${PRIVATE_TARGET_KINDS.join(", ")}` }))),
  SIGN_UP_LIMIT: positiveInt.default(10),
  RECONCILE_SOURCE: z.string().min(1).optional(),
  BOUNDARY_SOURCE: z.string().min(1).optional(),
  RECONCILE_STALE_AFTER_DAYS: z.coerce.number().int().min(0).default(100),
  SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`")
    .optional(),
  SECRETS_KEY_PREVIOUS: z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes): the SECRETS_KEY being replaced").optional(),
  SCHEDULE_RECONCILE: scheduleEnv("30 5 * * *"),
  SCHEDULE_RATE_CHANGES: scheduleEnv("5 0 * * *"),
  SCHEDULE_FILING_REMINDERS: scheduleEnv("0 8 * * *"),
  SCHEDULE_CERTIFICATE_EXPIRY: scheduleEnv("15 8 * * *"),
  SCHEDULE_BOUNDARY_IMPORT: scheduleEnv("45 5 * * *"),
})
  .refine((e) => e.WEBHOOK_LEASE_MS > e.WEBHOOK_TIMEOUT_MS, {
    path: ["WEBHOOK_LEASE_MS"],
    message: "must be longer than WEBHOOK_TIMEOUT_MS, or a slow delivery's claim lapses while it is still being sent",
  })
  .refine((e) => e.SECRETS_KEY_PREVIOUS === undefined || e.SECRETS_KEY !== undefined, {
    path: ["SECRETS_KEY_PREVIOUS"],
    message: "needs SECRETS_KEY, the key that replaces it",
  });

export type Config = Readonly<{
  port: number;
  host: string;
  databaseUrl: string;
  rateLimitPerSecond: number;
  errorsUrl: string;
  dataDir: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  geoDataDir: string;
  workerThreads: number;
  geocoder: GeocoderConfig;
  batch: BatchConfig;
  tigerBaseUrl: string;
  /** How often per-key request counts are written to the database (src/usage/). */
  usageFlushMs: number;
  /** Shared rate-limit buckets for several instances; null: each instance keeps its own in memory. */
  redis: Readonly<{ url: string; keyPrefix: string; commandTimeoutMs: number }> | null;
  /** Requests slower than this are logged at info level even when they succeed. */
  slowRequestMs: number;
  /** How long SIGTERM waits for in-flight requests and deliveries before exiting anyway. */
  shutdownGraceMs: number;
  /** Dashboard sign-up attempts allowed from one client address within 15 minutes, across every instance; the next waits an hour. */
  signUpLimit: number;
  /** Webhook delivery (src/webhooks/delivery-actor.ts). */
  webhooks: DeliverySettings;
  /** Hex AES-256 key sealing webhook signing secrets at rest (src/webhooks/secret-box.ts); null: stored as they are. */
  secretsKey: string | null;
  /** The key SECRETS_KEY replaces: still opens what it sealed, which is sealed again with the new key at start-up. */
  secretsKeyPrevious: string | null;
  /** Scheduled jobs (src/jobs/): the rate file to reconcile with and each job's cron pattern. */
  jobs: JobsConfig;
  /**
   * /readyz reports `stale` (still 200) when the last successful reconciliation is more days old
   * than this. 100 by default: the state posts a file each quarter it changes anything.
   */
  reconcileStaleAfterDays: number;
}>;

export type GeocoderConfig = Readonly<{
  censusUrl: string;
  timeoutMs: number;
  cacheSize: number;
  failureThreshold: number;
  cooldownMs: number;
  concurrency: number;
  /** The Census batch endpoint (src/geo/census-batch-geocoder.ts): rows per request, requests in flight, per-request timeout, retries. */
  batch: Readonly<{ rowsPerRequest: number; concurrency: number; timeoutMs: number; retries: number }>;
}>;

export type BatchConfig = Readonly<{ chunkRows: number; leaseMs: number; pollMs: number }>;

/** Throws an error naming every bad variable, so a misconfigured service never starts. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`invalid configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    errorsUrl: e.ERRORS_URL.replace(/\/+$/, ""),
    dataDir: e.DATA_DIR,
    logLevel: e.LOG_LEVEL,
    geoDataDir: e.GEO_DATA_DIR,
    workerThreads: e.WORKER_THREADS,
    geocoder: Object.freeze({
      censusUrl: e.CENSUS_GEOCODER_URL.replace(/\/+$/, ""),
      timeoutMs: e.GEOCODER_TIMEOUT_MS,
      cacheSize: e.GEOCODER_CACHE_SIZE,
      failureThreshold: e.GEOCODER_FAILURE_THRESHOLD,
      cooldownMs: e.GEOCODER_COOLDOWN_MS,
      concurrency: e.GEOCODER_CONCURRENCY,
      batch: Object.freeze({
        rowsPerRequest: e.GEOCODER_BATCH_ROWS,
        concurrency: e.GEOCODER_BATCH_CONCURRENCY,
        timeoutMs: e.GEOCODER_BATCH_TIMEOUT_MS,
        retries: e.GEOCODER_BATCH_RETRIES,
      }),
    }),
    batch: Object.freeze({ chunkRows: e.BATCH_CHUNK_ROWS, leaseMs: e.BATCH_LEASE_MS, pollMs: e.BATCH_POLL_MS }),
    tigerBaseUrl: e.TIGER_BASE_URL.replace(/\/+$/, ""),
    usageFlushMs: e.USAGE_FLUSH_MS,
    redis: e.REDIS_URL ? Object.freeze({ url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX, commandTimeoutMs: e.REDIS_TIMEOUT_MS }) : null,
    slowRequestMs: e.SLOW_REQUEST_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    signUpLimit: e.SIGN_UP_LIMIT,
    secretsKey: e.SECRETS_KEY ?? null,
    secretsKeyPrevious: e.SECRETS_KEY_PREVIOUS ?? null,
    webhooks: Object.freeze({
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retrySchedule: Object.freeze(e.WEBHOOK_RETRY_SCHEDULE),
      concurrency: e.WEBHOOK_CONCURRENCY,
      pollIntervalMs: e.WEBHOOK_POLL_MS,
      leaseMs: e.WEBHOOK_LEASE_MS,
      privateTargets: new Set<PrivateTargetKind>(e.WEBHOOK_PRIVATE_TARGETS),
    }),
    reconcileStaleAfterDays: e.RECONCILE_STALE_AFTER_DAYS,
    jobs: Object.freeze({
      reconcileSource: e.RECONCILE_SOURCE ?? null,
      boundarySource: e.BOUNDARY_SOURCE ?? null,
      boundarySchedule: e.SCHEDULE_BOUNDARY_IMPORT,
      schedules: Object.freeze({
        reconcile: e.SCHEDULE_RECONCILE,
        "rate-changes": e.SCHEDULE_RATE_CHANGES,
        "filing-reminders": e.SCHEDULE_FILING_REMINDERS,
        "certificate-expiry": e.SCHEDULE_CERTIFICATE_EXPIRY,
      }),
    }),
  });
}
