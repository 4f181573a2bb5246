/**
 * Configuration, read once from the environment, validated and frozen. Feature modules never
 * read process.env themselves: they receive the parts of this object they need.
 */
import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Cron } from "croner";
import { z } from "zod";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "data", "meta.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no Buckeye checkout above ${from}`);
  }
}

/**
 * The checkout's root folder (where package.json, data/ and the dashboard's assets live), found by
 * walking up from this module: the same answer from the TypeScript sources (src/) and from the
 * compiled build (dist/src/), so paths to shipped files never depend on where a module was emitted.
 */
export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** Ohio's clock: dates, schedules and cron patterns are read in it. */
export const OHIO_TIMEZONE = "America/New_York";

/** An IP address, or one with a prefix length its family allows (TRUSTED_PROXIES). */
function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The kinds of non-public address an operator may open to test-key webhooks; everything else non-public stays closed. */
export const PRIVATE_TARGET_KINDS = ["loopback", "private", "link-local"] as const;
export type PrivateTargetKind = (typeof PRIVATE_TARGET_KINDS)[number];

/**
 * When to try a failed delivery again. The default follows the Standard Webhooks example
 * schedule: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, ten attempts spread over
 * about three days (3 d 3 h 35 min 5 s before jitter), like Stripe's three days of retries.
 */
export const DEFAULT_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,14h,20h,24h";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "5s,5m,2h" or "50ms,100ms" → milliseconds; throws on anything else. */
export function parseRetrySchedule(text: string): number[] {
  return text.split(",").map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is not a duration such as 50ms, 5s, 30m, 2h or 1d`);
    return Math.round(Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]);
  });
}

/** A comma-separated list of durations (50ms, 5s, 30m, 2h, 1d) → milliseconds. */
export const retryScheduleEnv = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      try {
        return parseRetrySchedule(text);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    });

/** A cron pattern read in America/New_York, or "off" (→ null). */
export const scheduleEnv = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      if (text.trim() === "off") return null;
      try {
        new Cron(text, { timezone: OHIO_TIMEZONE });
        return text.trim();
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `not a cron pattern: ${(error as Error).message}` });
        return z.NEVER;
      }
    });

/**
 * The ports fetch refuses to request (the Fetch standard's "bad port" list,
 * https://fetch.spec.whatwg.org/#port-blocking, as undici applies it): a request to one fails
 * without connecting, so an upstream configured on one could never answer.
 */
export const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135,
  137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719,
  1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Why fetch would never request `text`, or null when it would: the one rule for every upstream URL below. */
function unfetchable(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `is a ${url.protocol} URL: fetch speaks only http:// and https://`;
  if (FETCH_BAD_PORTS.has(Number(url.port))) return `uses port ${url.port}, which fetch refuses to connect to (a "bad port" in the Fetch standard)`;
  return null;
}

const refuseUnfetchable = (text: string, ctx: z.RefinementCtx) => {
  const why = unfetchable(text);
  if (why) ctx.addIssue({ code: "custom", message: why });
};

/**
 * An upstream the service fetches from. Refused at start-up when fetch could never request it:
 * otherwise the mistake shows only at the first call, as an outage of the upstream.
 */
const upstreamUrl = (fallback: string) => z.string().default(fallback).superRefine(refuseUnfetchable);

/** A path, or an upstream URL as above: anything written `scheme://…` is read as a URL. */
const pathOrUpstreamUrl = () =>
  z
    .string()
    .min(1)
    .superRefine((text, ctx) => {
      if (/^[a-z][a-z\d+.-]*:\/\//i.test(text)) refuseUnfetchable(text, ctx);
    })
    .optional();

const repoRoot = `${REPO_ROOT}/`;

/** Boundary polygons are never committed: the shared data folder beside the checkout, else var/geo (where fetch-geo writes). */
const sharedGeoDir = join(REPO_ROOT, "..", "shared", "data", "geo");
const defaultGeoDataDir = existsSync(sharedGeoDir) ? sharedGeoDir : `${repoRoot}var/geo`;

const positiveInt = z.coerce.number().int().positive();

/**
 * One rule for every path setting: a relative path is read from the checkout, as the defaults are,
 * never from the current folder, so `npx buckeye` run in a subfolder works on the same files.
 */
function inCheckout(path: string): string {
  return isAbsolute(path) ? path : join(REPO_ROOT, path);
}

function sqliteInCheckout(url: string): string {
  const path = url.slice("sqlite:".length);
  return url.startsWith("sqlite:") && path !== ":memory:" ? `sqlite:${inCheckout(path)}` : url;
}

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe("listening port (`0` picks a free one)"),
  HOST: z.string().min(1).default("127.0.0.1").describe("listening address"),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional().describe("port of a separate listener that serves Prometheus metrics at `/metrics` (docs/operations/metrics.md); unset: no metrics listener (`0` picks a free one)"),
  METRICS_HOST: z.string().min(1).default("127.0.0.1").describe("address the metrics listener binds to: loopback by default, so only this machine (a Prometheus or an agent beside it) can scrape; a private interface only on a network customers cannot reach"),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/)/, "must start with sqlite: or postgres://")
    .default("sqlite:var/buckeye.sqlite").describe("`sqlite:PATH` (embedded default) or `postgres://…`; `?schema=NAME` puts the tables in that schema, created if missing. A relative `PATH`, like every relative path setting, is read from the checkout, not the current folder"),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(10).describe("requests per second per API key"),
  RATE_LIMIT_PER_SECOND_PER_ORG: z.coerce
    .number()
    .positive()
    .optional()
    .meta({
      description:
        "requests per second across all of one organization's API keys, on top of each key's own limit, so creating keys does not multiply what an organization may send; room for about five keys at full rate (production, staging, a nightly job) without letting one customer take the service from the others",
      shownDefault: "5 × `RATE_LIMIT_PER_SECOND` (`50`)",
    }),
  ACTIVE_KEYS_PER_ORG: positiveInt
    .default(20)
    .describe("active (not revoked) API keys one organization may hold; creating one more is refused until a key is revoked. Enough for a key per service and environment, few enough that keys stay an inventory rather than a way around limits"),
  ERRORS_URL: z.url().default("https://buckeye.dev/errors").describe("base of problem `type` URIs, which read `{ERRORS_URL}/<slug>` (the contract's form); publish docs/api/errors.md where `<slug>` reaches its anchor"),
  DATA_DIR: z.string().default(`${repoRoot}data`).meta({ description: "the shipped tables (a relative path is read from the checkout)", shownDefault: "`data/` in the checkout" }),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info").describe("`debug`, `info`, `warn`, `error` or `silent`; logs are JSON lines on stderr; `debug` adds an access line per request"),
  GEO_DATA_DIR: z.string().min(1).default(defaultGeoDataDir).meta({ description: "county and place polygon files (GeoJSON or TIGER/Line shapefiles; a relative path is read from the checkout)", shownDefault: "`../shared/data/geo` beside the checkout if present, else `var/geo`" }),
  WORKER_THREADS: positiveInt.max(256).default(availableParallelism()).meta({ description: "threads of the lookup pool's interactive lane: point-in-polygon for single address and coordinate lookups", shownDefault: "the core count" }),
  BATCH_THREADS: positiveInt.max(256).default(Math.max(1, availableParallelism() - 1)).meta({ description: "threads of the lookup pool's batch lane: uploaded files, job chunks and large inline batches, resolved whole; its own threads, so single lookups never wait behind them", shownDefault: "the core count less one, at least 1" }),
  BATCH_THREAD_MAX_HEAP_MB: positiveInt
    .min(32)
    .max(16_384)
    .default(512)
    .describe(
      "heap ceiling of each batch-lane thread, in MB: an upload or chunk that needs more fails alone (an upload answers 413 `batch-too-large`) and the thread is replaced, while the interactive lane keeps answering. A 60 MB NDJSON upload of 100,000 lookups with every field at its longest was read within a 128 MB ceiling (measured); at most `BATCH_THREADS` times this is taken by the lane (was 1 GiB per thread, shared with the interactive lane)",
    ),
  CENSUS_GEOCODER_URL: upstreamUrl("https://geocoding.geo.census.gov").describe("the Census Geocoder (tests point it at the fake upstream); an http(s) URL on a port fetch will use (not one of the Fetch standard's bad ports, such as 1, 6000 or 10080)"),
  GEOCODER_TIMEOUT_MS: positiveInt.default(5000).describe("per call to the geocoder"),
  GEOCODER_CACHE_SIZE: positiveInt.default(50_000).describe("normalised addresses kept in the LRU cache"),
  GEOCODER_FAILURE_THRESHOLD: positiveInt.default(5).describe("failures in a row that open the geocoder circuit"),
  GEOCODER_COOLDOWN_MS: positiveInt.default(30_000).describe("how long the geocoder circuit stays open before a trial call"),
  GEOCODER_CONCURRENCY: positiveInt.max(1000).default(16).describe("geocoder calls in flight per process (shared by every batch)"),
  GEOCODER_BATCH_ROWS: positiveInt.max(10_000).default(10_000).describe("addresses per request to the Census batch endpoint (1 to 10,000, its documented limit)"),
  GEOCODER_BATCH_CONCURRENCY: positiveInt.max(16).default(4).describe("batch requests in flight at once (each up to `GEOCODER_BATCH_ROWS` rows), shared by jobs and inline lists; an inline list waiting for one goes before a job's request. Per process, or with `REDIS_URL` for all instances together (docs/operations/several-instances.md)"),
  GEOCODER_BATCH_TIMEOUT_MS: positiveInt.default(600_000).describe("how long one batch request of a job (or `buckeye batch`) may take before it counts as failed (the real service takes minutes for 10,000 rows); an inline list has `GEOCODER_INLINE_BATCH_TIMEOUT_MS`"),
  GEOCODER_INLINE_BATCH_TIMEOUT_MS: positiveInt.default(30_000).describe("how long an inline list (`POST /rates/batch`) waits for the Census batch endpoint, waiting for a free request (`GEOCODER_BATCH_CONCURRENCY`) and one retry included, since a client holds the connection open; rows still unanswered then are answered as `geocoder-unavailable` (or their ZIP's rate). Jobs keep `GEOCODER_BATCH_TIMEOUT_MS`"),
  GEOCODER_BATCH_RETRIES: z.coerce.number().int().min(0).max(10).default(3).describe("further attempts of a job's failed batch request, with exponential backoff from 2 s (or the upstream's `Retry-After` when longer); an inline list's has one (none when this is 0), within `GEOCODER_INLINE_BATCH_TIMEOUT_MS`"),
  UPLOAD_MAX_LINE_BYTES: positiveInt
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(65_536)
    .describe(
      "longest line of a batch upload (an NDJSON line, or a CSV record with its quoted line breaks), in bytes: a longer one is refused 413 `batch-line-too-long` as the upload streams, before it is stored or read by a thread. A lookup with every field at its longest is under 600 bytes",
    ),
  BATCH_CHUNK_ROWS: positiveInt.max(10_000).default(500).describe("rows per stored chunk of an asynchronous batch job, at most: a chunk is cut sooner once its text reaches 4 MiB, so a batch thread never builds one large string"),
  BATCH_LEASE_MS: positiveInt.default(60_000).describe("how long a claimed chunk is held; a dead runner's claims lapse after it"),
  BATCH_POLL_MS: positiveInt.default(1000).describe("how often idle batch runners look for work"),
  BATCH_JOBS_RUNNING_PER_ORG: positiveInt
    .default(2)
    .describe("jobs one organization may have running at once; its next job stays `queued` until one completes (organizations take turns chunk by chunk either way)"),
  BATCH_JOBS_IN_FLIGHT_PER_ORG: positiveInt
    .default(10)
    .describe("jobs one organization may have queued or running at once; one more is refused with 429 `batch-jobs-in-flight` and `Retry-After`, so one customer cannot fill the queue the others' jobs wait in"),
  BATCH_DOWNLOADS_PER_ORG: positiveInt
    .default(2)
    .describe("results downloads one organization may have in progress at once on one process; one more is refused with 429 `batch-downloads-in-flight` and `Retry-After` before anything is read. A download is read and written a slice of 250 rows per event-loop turn, so other requests are answered between slices; this bound keeps one organization's downloads from taking most of each turn"),
  BATCH_JOBS_STORED_PER_ORG: positiveInt
    .default(100)
    .describe("jobs one organization may keep stored (queued, running and completed, until deleted or swept by `retention`); one more is refused with 409 `batch-jobs-stored` until it deletes some (a 100,000-row job holds about 140 MB)"),
  BATCH_UPLOAD_BYTES_PER_ORG: positiveInt
    .min(64 * 1024 * 1024)
    .default(128 * 1024 * 1024)
    .meta({
      description:
        "bytes of batch uploads one organization may be sending to one process at once, counted before a body is read (its `Content-Length`, or 64 MiB for an upload that declares none) and given back once it is answered; one more is refused with 429 `batch-uploads-in-flight` and `Retry-After` while its client is still sending, and only that organization waits. At least 64 MiB, so a file of the largest size can always be sent, and at most half of `BATCH_UPLOAD_BYTES_PER_PROCESS`, so one organization's uploads never take the process's whole room",
      shownDefault: "`134217728` (128 MiB: two of the largest uploads)",
    }),
  BATCH_UPLOAD_BYTES_PER_PROCESS: positiveInt
    .min(64 * 1024 * 1024)
    .default(256 * 1024 * 1024)
    .meta({
      description:
        "bytes of batch uploads all organizations together may have sent to one process and not yet had answered: only bytes that have arrived count, never what an upload declares, so slow uploads that claim a large size hold only what they sent. An upload whose next bytes would pass it is refused with 503 `batch-uploads-busy` and `Retry-After` (before its body is read when there is no room at all, else as it arrives; nothing is stored), a refusal the server-errors alert does not count. An upload is held whole on the answering thread and read again in a batch thread, so the process holds about twice this at most for uploads",
      shownDefault: "`268435456` (256 MiB: four of the largest uploads)",
    }),
  BATCH_CHUNK_MAX_ATTEMPTS: positiveInt
    .max(100)
    .default(3)
    .describe("times a chunk is worked without being stored (its runner crashed or failed each time); the claim after that gives its rows up as `batch-row-abandoned`, and the job goes on"),
  RETAIN_BATCH_JOBS_DAYS: positiveInt.max(3650).default(7).describe("days a completed batch job, its chunks and its results are kept after it completed; then `retention` deletes them (an organization can delete one sooner with `DELETE /api/v1/batches/{id}`)"),
  RETAIN_EVENTS_DAYS: positiveInt
    .max(3650)
    .default(30)
    .describe("days a delivered, failed or cancelled webhook delivery (with its attempts) is kept after its last change, and an event once none of its deliveries is left; a pending delivery is never deleted. An event a scheduled job keys (reminders, rate changes) is kept at least 400 days, so it is never sent twice"),
  RETAIN_USAGE_DAYS: positiveInt.min(31).max(3650).default(400).describe("days of per-key daily request counts kept (the dashboard shows the last 30; a year and more lets a month be compared with the same month a year before)"),
  TIGER_BASE_URL: upstreamUrl("https://www2.census.gov/geo/tiger").describe("where `data fetch-geo` downloads from; an http(s) URL on a port fetch will use"),
  USAGE_FLUSH_MS: z.coerce.number().int().positive().default(5000).describe("how often per-key request counts (dashboard usage, keys' \"last used\") are written to the database"),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://").optional().describe("`redis://…`: rate-limit buckets shared by every instance; unset: per process"),
  REDIS_KEY_PREFIX: z.string().default("buckeye:").describe("prefix of every Redis key, so deployments can share one Redis"),
  REDIS_TIMEOUT_MS: positiveInt.default(250).describe("how long a request waits for Redis before answering from its own instance bucket (logged once as a warning)"),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(10_000).describe("a client must send a request's headers within this (from its connection, or from the first byte after an answer), or gets 408 and is closed, checked every tenth of the shorter of this and `HTTP_BODY_TIMEOUT_MS` (at most every second); Node's own default is 60 s, which let slow sockets pile up"),
  HTTP_BODY_TIMEOUT_MS: positiveInt.default(10_000).describe("a request body gets this long, plus one second for every `HTTP_BODY_MIN_BYTES_PER_SECOND` bytes it has sent, counting only time the service is reading it; past that the client gets 408 and is closed. A 2 KB form has 12 s, a 64 MB upload must keep its average above the minimum rate"),
  HTTP_BODY_MIN_BYTES_PER_SECOND: positiveInt.default(1024).describe("the slowest average rate a request body may arrive at once its `HTTP_BODY_TIMEOUT_MS` is spent (a 64 MB upload at exactly this rate would take 18 hours: `HTTP_REQUEST_TIMEOUT_MS` ends it first)"),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(300_000).describe("a client must send a whole request within this (a 64 MB upload needs about 1.8 Mbit/s to fit), or gets 408 and is closed"),
  HTTP_MAX_CONNECTIONS: positiveInt.optional().meta({ description: "connections held at once. Near it (within a fiftieth) a new connection is let in by closing one that waits on its client: an idle keep-alive connection first, then the one longest sending headers, then the slowest body, then one whose client does not read its answers; a connection the service is still answering is never closed for room (docs/operations/README.md, \"Connections\"). Past it new connections are closed at once, with a warning in the log at most every 10 s. Keep it under the process's open-file limit (`ulimit -n`), which the store, worker threads and upstream calls also use. A per-client-address limit belongs in the proxy in front (docs/operations/README.md)", shownDefault: "three quarters of the process's open-file limit (4,096 assumed where it cannot be read)" }),
  SLOW_REQUEST_MS: z.coerce.number().int().positive().default(500).describe("requests at least this slow get an access-log line at `info`"),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(30_000).describe("how long SIGTERM waits for requests, deliveries and jobs in flight before exiting anyway"),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000).describe("a delivery attempt must get its 2xx within this"),
  WEBHOOK_RETRY_SCHEDULE: retryScheduleEnv(DEFAULT_RETRY_SCHEDULE).describe("waits before each retry (`ms`, `s`, `m`, `h`, `d`); one more attempt than entries"),
  WEBHOOK_CONCURRENCY: positiveInt.max(1000).default(16).describe("deliveries in flight per process; at most half of them (at least one) go to endpoints in doubt, whose last attempt failed or that never answered while their organization has a failing endpoint, so the other half stays for receivers that answer"),
  WEBHOOK_POLL_MS: positiveInt.default(1000).describe("how often the outbox is checked for due deliveries (events published in-process wake it at once)"),
  WEBHOOK_LEASE_MS: positiveInt.default(60_000).describe("how long a claimed delivery is held; must exceed the timeout; a dead process's claims lapse after it"),
  WEBHOOK_IN_FLIGHT_PER_ORG: positiveInt
    .max(1000)
    .default(4)
    .describe("deliveries one organization may have in flight at once, across every instance; the next slot goes to the organization holding the fewest, and among those to the one that has waited longest since its oldest due delivery or its last slot, so a receiver that hangs holds at most this many of them"),
  WEBHOOKS_PER_ORG: positiveInt.default(20).describe("webhooks one organization may register (active and disabled alike); the next is refused with `webhook-limit-reached` until one is deleted"),
  CERTIFICATES_PER_ORG: positiveInt
    .default(10_000)
    .describe("exemption certificates one organization may keep; the next is refused with `certificate-limit-reached` until one is deleted"),
  // Off by default: a webhook reaching loopback, private or link-local addresses makes the service a port scanner for anyone who can sign up.
  WEBHOOK_PRIVATE_TARGETS: z
    .string()
    .default("")
    .transform((list) => list.split(",").map((kind) => kind.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.enum(PRIVATE_TARGET_KINDS, { error: `each entry must be one of ${PRIVATE_TARGET_KINDS.join(", ")}` }))).describe("comma list of `loopback`, `private`, `link-local`: the non-public addresses `tax_test_` webhooks may reach (plain http needs `loopback`); unset: public addresses only. Live webhooks are always public-only."),
  SIGN_UP_LIMIT: positiveInt.default(10).describe("dashboard sign-up attempts from one client address within 15 minutes; the next waits an hour"),
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((list) => list.split(",").map((entry) => entry.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine(isAddressOrRange, { error: "each entry must be an IP address or a CIDR range such as 10.0.0.0/8" })))
    .describe("comma list of the addresses or CIDR ranges of the reverse proxies in front of the service: a request whose socket comes from one of them is the client's named in `X-Forwarded-For` (the right-most address there that is not a trusted proxy), for the dashboard's sign-in and sign-up throttles; unset: the socket's address, and `X-Forwarded-For` is never read"),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://tax.example.com" })
    .optional()
    .describe("the address customers reach this service at, e.g. `https://tax.example.com`: the start of the links in password reset mail and of those `user reset-password` prints (never taken from a request's Host header, which anyone can set); unset: reset mail is off and the CLI prints `http://HOST:PORT` links"),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL such as smtps://user:pass@mail.example.com:465" })
    .optional()
    .describe("the mail server that sends password reset mail, as `smtp://[user:pass@]host[:port]` (STARTTLS when offered) or `smtps://…` (TLS from the start); needs `PUBLIC_URL` and `MAIL_FROM`; unset: the dashboard's forgotten-password page says resets go through the operator (`buckeye user reset-password`)"),
  MAIL_FROM: z.string().min(3).optional().describe("the From of password reset mail, e.g. `Buckeye <no-reply@tax.example.com>` (with `SMTP_URL`)"),
  SUPPORT_CONTACT: z
    .string()
    .refine((v) => /^https?:\/\/\S+$/.test(v) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), { error: "must be an email address or an http(s) URL" })
    .optional()
    .describe("where customers get help, an email address or an http(s) URL: named on the dashboard's suspended-organization and forgotten-password pages; unset: those pages say to ask whoever runs this Buckeye server"),
  RECONCILE_SOURCE: pathOrUpstreamUrl().describe("the state's SST rate file to reconcile with: a path or an http(s) URL (on a port fetch will use), to the CSV or to a ZIP archive holding exactly one CSV (the state posts both); a plain `http://` URL needs `RECONCILE_SHA256`; unset skips the job"),
  RECONCILE_SHA256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters, the SHA-256 of the file")
    .optional()
    .describe("the SHA-256 (64 hex characters) the rate file at `RECONCILE_SOURCE` must have; a file that differs changes nothing. Required for an `http://` source: over plain http nothing else vouches for the bytes"),
  RECONCILE_MAX_BYTES: positiveInt.default(4_000_000).describe("a rate file whose download, or whose CSV text (a ZIP archive's entry inflated), runs past this many bytes is refused as it streams, on a thread of its own (Ohio's file is about 10 kB)"),
  BOUNDARY_SOURCE: pathOrUpstreamUrl().describe("the state's SST boundary file: an http(s) URL (on a port fetch will use), a path to the CSV or ZIP, or a folder (the newest `OHB…` file in it); the `boundary-import` job imports it when its version is new (never with `--force`); a plain `http://` URL needs `BOUNDARY_SHA256`; unset turns the job off"),
  BOUNDARY_SHA256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters, the SHA-256 of the file")
    .optional()
    .describe("the SHA-256 (64 hex characters) the boundary file at `BOUNDARY_SOURCE` must have; a file that differs is refused. Required for an `http://` source: over plain http nothing else vouches for the bytes"),
  BOUNDARY_MAX_BYTES: positiveInt.default(1_500_000_000).describe("a boundary file whose CSV text (a ZIP archive's entry inflated) runs past this many bytes is refused as it streams (Ohio's file is about 400 MB)"),
  BOUNDARY_MAX_RECORDS: positiveInt.default(4_000_000).describe("a boundary file with more rows than this is refused as it streams (Ohio's file has about 1.9 million)"),
  BOUNDARY_MAX_LINE_LENGTH: positiveInt.default(4096).describe("a boundary file with a line longer than this many characters is refused as it streams (a row of 89 columns is a few hundred)"),
  RECONCILE_STALE_AFTER_DAYS: z.coerce.number().int().min(0).default(100).describe("`/readyz` reports `stale` (still 200) and `data status` says stale when the last successful reconciliation is more days old than this (the state posts a file each quarter it changes anything); `0`: stale from the next day"),
  SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`")
    .optional().describe("64 hex characters (`openssl rand -hex 32`): seals webhook signing secrets in the database with AES-256-GCM; unset stores them as they are. Set it in production"),
  SECRETS_KEY_PREVIOUS: z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes): the SECRETS_KEY being replaced").optional().describe("when replacing `SECRETS_KEY`: the old key, which still opens what it sealed; at start-up those secrets are sealed again with the new key"),
  SCHEDULE_RECONCILE: scheduleEnv("30 5 * * *").describe("cron pattern in America/New_York for the `reconcile` job (the SST rate file at `RECONCILE_SOURCE`), or `off`"),
  SCHEDULE_RATE_CHANGES: scheduleEnv("5 0 * * *").describe("cron pattern in America/New_York for the `rate-changes` job (`rate.changed` events for rates taking effect today), or `off`"),
  SCHEDULE_FILING_REMINDERS: scheduleEnv("0 8 * * *").describe("cron pattern in America/New_York for the `filing-reminders` job (`filing.due` 7 and 1 days ahead), or `off`"),
  SCHEDULE_CERTIFICATE_EXPIRY: scheduleEnv("15 8 * * *").describe("cron pattern in America/New_York for the `certificate-expiry` job (`certificate.expiring` 30 and 7 days ahead), or `off`"),
  SCHEDULE_BOUNDARY_IMPORT: scheduleEnv("45 5 * * *").describe("cron pattern in America/New_York for the `boundary-import` job (the boundary file at `BOUNDARY_SOURCE`, when its version is new), or `off`"),
  SCHEDULE_RETENTION: scheduleEnv("30 3 * * *").describe("cron pattern in America/New_York for the `retention` job (deletes what `RETAIN_*` no longer keeps, a few rows per transaction), or `off`"),
})
  .refine((e) => e.WEBHOOK_LEASE_MS > e.WEBHOOK_TIMEOUT_MS, {
    path: ["WEBHOOK_LEASE_MS"],
    message: "must be longer than WEBHOOK_TIMEOUT_MS, or a slow delivery's claim lapses while it is still being sent",
  })
  .refine((e) => e.BATCH_UPLOAD_BYTES_PER_ORG * 2 <= e.BATCH_UPLOAD_BYTES_PER_PROCESS, {
    path: ["BATCH_UPLOAD_BYTES_PER_ORG"],
    message: "must be at most half of BATCH_UPLOAD_BYTES_PER_PROCESS, so one organization's uploads never take the process's whole room",
  })
  .refine((e) => e.HTTP_HEADERS_TIMEOUT_MS <= e.HTTP_REQUEST_TIMEOUT_MS, {
    path: ["HTTP_HEADERS_TIMEOUT_MS"],
    message: "must not be longer than HTTP_REQUEST_TIMEOUT_MS, which includes the headers",
  })
  .refine((e) => !/^http:\/\//i.test(e.BOUNDARY_SOURCE ?? "") || e.BOUNDARY_SHA256 !== undefined, {
    path: ["BOUNDARY_SOURCE"],
    message: "is a plain http:// URL: use https://, or set BOUNDARY_SHA256 to the file's checksum",
  })
  .refine((e) => !/^http:\/\//i.test(e.RECONCILE_SOURCE ?? "") || e.RECONCILE_SHA256 !== undefined, {
    path: ["RECONCILE_SOURCE"],
    message: "is a plain http:// URL: use https://, or set RECONCILE_SHA256 to the file's checksum",
  })
  .refine((e) => e.METRICS_PORT === undefined || e.METRICS_PORT === 0 || e.METRICS_PORT !== e.PORT, {
    path: ["METRICS_PORT"],
    message: "must differ from PORT: metrics are never served on the public port",
  })
  .refine((e) => e.SMTP_URL === undefined || (e.PUBLIC_URL !== undefined && e.MAIL_FROM !== undefined), {
    path: ["SMTP_URL"],
    message: "needs PUBLIC_URL (the start of the links it mails) and MAIL_FROM",
  })
  .refine((e) => e.SECRETS_KEY_PREVIOUS === undefined || e.SECRETS_KEY !== undefined, {
    path: ["SECRETS_KEY_PREVIOUS"],
    message: "needs SECRETS_KEY, the key that replaces it",
  });

/**
 * The environment, validated (configSchema), then mapped to the shape the service reads and frozen.
 * A setting is written once: its variable, default and check in configSchema, its place here; the
 * types below are read from this mapping.
 */
const configFromEnv = configSchema.transform((e) => {
  /** Non-public address kinds test-key webhooks may reach (WEBHOOK_PRIVATE_TARGETS); empty: public addresses only. */
  const privateTargets: ReadonlySet<PrivateTargetKind> = new Set(e.WEBHOOK_PRIVATE_TARGETS);
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    /** The Prometheus listener (src/metrics.ts), or null when METRICS_PORT is unset. */
    metrics: e.METRICS_PORT === undefined ? null : Object.freeze({ port: e.METRICS_PORT, host: e.METRICS_HOST }),
    databaseUrl: sqliteInCheckout(e.DATABASE_URL),
    /** Token buckets per key and per organization (src/http/rate-limit.ts). */
    rateLimits: Object.freeze({ perKey: e.RATE_LIMIT_PER_SECOND, perOrganization: e.RATE_LIMIT_PER_SECOND_PER_ORG ?? 5 * e.RATE_LIMIT_PER_SECOND }),
    /** Active API keys one organization may hold (src/accounts/account-service.ts). */
    activeKeysPerOrganization: e.ACTIVE_KEYS_PER_ORG,
    errorsUrl: e.ERRORS_URL.replace(/\/+$/, ""),
    dataDir: inCheckout(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    geoDataDir: inCheckout(e.GEO_DATA_DIR),
    workerThreads: e.WORKER_THREADS,
    batchThreads: e.BATCH_THREADS,
    /** Heap ceiling of each batch-lane thread, in MB (src/lookup/worker-pool.ts). */
    batchThreadHeapMb: e.BATCH_THREAD_MAX_HEAP_MB,
    geocoder: Object.freeze({
      censusUrl: e.CENSUS_GEOCODER_URL.replace(/\/+$/, ""),
      timeoutMs: e.GEOCODER_TIMEOUT_MS,
      cacheSize: e.GEOCODER_CACHE_SIZE,
      failureThreshold: e.GEOCODER_FAILURE_THRESHOLD,
      cooldownMs: e.GEOCODER_COOLDOWN_MS,
      concurrency: e.GEOCODER_CONCURRENCY,
      /**
       * The Census batch endpoint (src/geo/census-batch-geocoder.ts): rows per request, requests in flight
       * in the process, per-request timeout and retries of a job, and the whole wait of an inline list.
       */
      batch: Object.freeze({
        rowsPerRequest: e.GEOCODER_BATCH_ROWS,
        concurrency: e.GEOCODER_BATCH_CONCURRENCY,
        timeoutMs: e.GEOCODER_BATCH_TIMEOUT_MS,
        retries: e.GEOCODER_BATCH_RETRIES,
        inlineTimeoutMs: e.GEOCODER_INLINE_BATCH_TIMEOUT_MS,
      }),
    }),
    batch: Object.freeze({
      /** Longest line of an upload, in bytes, refused while it streams (src/batch/row-counter.ts). */
      maxLineBytes: e.UPLOAD_MAX_LINE_BYTES,
      chunkRows: e.BATCH_CHUNK_ROWS,
      leaseMs: e.BATCH_LEASE_MS,
      pollMs: e.BATCH_POLL_MS,
      /** Jobs one organization may have running at once (the fair-shares rule, src/batch/batch-jobs.repository.ts). */
      runningPerOrganization: e.BATCH_JOBS_RUNNING_PER_ORG,
      /** Times a chunk is worked before its rows are given up. */
      maxChunkAttempts: e.BATCH_CHUNK_MAX_ATTEMPTS,
      /** Jobs one organization may have queued or running; the next is refused (429). */
      inFlightPerOrganization: e.BATCH_JOBS_IN_FLIGHT_PER_ORG,
      /** Jobs one organization may keep stored, completed ones included; the next is refused (409). */
      storedPerOrganization: e.BATCH_JOBS_STORED_PER_ORG,
      /** Bytes of uploads one organization may be sending at once; the next is refused (429) before it is read. */
      uploadBytesPerOrganization: e.BATCH_UPLOAD_BYTES_PER_ORG,
      /** Results downloads one organization may have in progress at once on this process; the next is refused (429). */
      downloadsPerOrganization: e.BATCH_DOWNLOADS_PER_ORG,
      /** Bytes of uploads arrived and not yet answered the process may hold; an upload whose next bytes do not fit is refused (503). */
      uploadBytesPerProcess: e.BATCH_UPLOAD_BYTES_PER_PROCESS,
    }),
    tigerBaseUrl: e.TIGER_BASE_URL.replace(/\/+$/, ""),
    /** How often per-key request counts are written to the database (src/usage/). */
    usageFlushMs: e.USAGE_FLUSH_MS,
    /** Shared rate-limit buckets for several instances; null: each instance keeps its own in memory. */
    redis: e.REDIS_URL ? Object.freeze({ url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX, commandTimeoutMs: e.REDIS_TIMEOUT_MS }) : null,
    /** The listening socket's limits (src/http/server-limits.ts); maxConnections null: from the open-file limit. */
    server: Object.freeze({
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      bodyTimeoutMs: e.HTTP_BODY_TIMEOUT_MS,
      bodyMinBytesPerSecond: e.HTTP_BODY_MIN_BYTES_PER_SECOND,
      maxConnections: e.HTTP_MAX_CONNECTIONS ?? null,
    }),
    /** Requests slower than this are logged at info level even when they succeed. */
    slowRequestMs: e.SLOW_REQUEST_MS,
    /** How long SIGTERM waits for in-flight requests and deliveries before exiting anyway. */
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    /** Dashboard sign-up attempts allowed from one client address within 15 minutes, across every instance; the next waits an hour. */
    signUpLimit: e.SIGN_UP_LIMIT,
    /** Addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For names the client (src/web/client-address.ts). */
    trustedProxies: Object.freeze(e.TRUSTED_PROXIES),
    /** The address customers reach the service at (PUBLIC_URL, no trailing slash), for links in mail; null when unset. */
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, "") ?? null,
    /** Password reset mail (SMTP_URL, MAIL_FROM); null: resets go through the operator's `user reset-password`. */
    mail: e.SMTP_URL && e.MAIL_FROM ? Object.freeze({ smtpUrl: e.SMTP_URL, from: e.MAIL_FROM }) : null,
    /** Where customers get help (SUPPORT_CONTACT): an email address or a URL; null when unset. */
    supportContact: e.SUPPORT_CONTACT ?? null,
    /** Hex AES-256 key sealing webhook signing secrets at rest (src/webhooks/secret-box.ts); null: stored as they are. */
    secretsKey: e.SECRETS_KEY ?? null,
    /** The key SECRETS_KEY replaces: still opens what it sealed, which is sealed again with the new key at start-up. */
    secretsKeyPrevious: e.SECRETS_KEY_PREVIOUS ?? null,
    /** Webhook delivery (src/webhooks/delivery-actor.ts). */
    webhooks: Object.freeze({
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      /** Delays before the 2nd, 3rd, … attempt; its length + 1 is the number of attempts. */
      retrySchedule: Object.freeze(e.WEBHOOK_RETRY_SCHEDULE),
      concurrency: e.WEBHOOK_CONCURRENCY,
      pollIntervalMs: e.WEBHOOK_POLL_MS,
      /** How long a claim holds; longer than timeoutMs so a live attempt is never taken over. */
      leaseMs: e.WEBHOOK_LEASE_MS,
      /** Deliveries one organization may have in flight at once, across every instance (the fair claim, src/store/deliveries.repository.ts). */
      perOrganization: e.WEBHOOK_IN_FLIGHT_PER_ORG,
      privateTargets,
    }),
    /** Webhooks one organization may register (src/webhooks/webhook-service.ts). */
    webhooksPerOrganization: e.WEBHOOKS_PER_ORG,
    /** Exemption certificates one organization may keep (src/http/routes/certificates.ts). */
    certificatesPerOrganization: e.CERTIFICATES_PER_ORG,
    /**
     * /readyz reports `stale` (still 200) when the last successful reconciliation is more days old
     * than this. 100 by default: the state posts a file each quarter it changes anything.
     */
    reconcileStaleAfterDays: e.RECONCILE_STALE_AFTER_DAYS,
    /** Scheduled jobs (src/scheduled/): the rate file to reconcile with and each job's cron pattern (null: off). */
    jobs: Object.freeze({
      reconcileSource: e.RECONCILE_SOURCE ?? null,
      /** The SHA-256 the rate file must have (hex, lower case); null: not checked. */
      reconcileSha256: e.RECONCILE_SHA256?.toLowerCase() ?? null,
      /** Bytes a rate file's download, and its text, are each refused past (src/scheduled/rate-file-thread.ts). */
      reconcileMaxBytes: e.RECONCILE_MAX_BYTES,
      /** The state's SST boundary file: a URL, a file or a folder (src/boundaries/boundary-job.ts); null: the job is off. */
      boundarySource: e.BOUNDARY_SOURCE ?? null,
      boundarySchedule: e.SCHEDULE_BOUNDARY_IMPORT,
      /** The SHA-256 the boundary file must have (hex, lower case); null: not checked. */
      boundarySha256: e.BOUNDARY_SHA256?.toLowerCase() ?? null,
      /** Caps a boundary file is refused past, checked while it streams (src/boundaries/import-file.ts). */
      boundaryCaps: Object.freeze({ bytes: e.BOUNDARY_MAX_BYTES, records: e.BOUNDARY_MAX_RECORDS, lineLength: e.BOUNDARY_MAX_LINE_LENGTH }),
      schedules: Object.freeze({
        reconcile: e.SCHEDULE_RECONCILE,
        "rate-changes": e.SCHEDULE_RATE_CHANGES,
        "filing-reminders": e.SCHEDULE_FILING_REMINDERS,
        "certificate-expiry": e.SCHEDULE_CERTIFICATE_EXPIRY,
        retention: e.SCHEDULE_RETENTION,
      }),
      /** What the `retention` job keeps, in days (src/scheduled/retention.ts). */
      retention: Object.freeze({
        /** Completed batch jobs, from their completion. */
        batchJobsDays: e.RETAIN_BATCH_JOBS_DAYS,
        /** Finished deliveries from their last change; events once no delivery of them is left. */
        eventsDays: e.RETAIN_EVENTS_DAYS,
        /** Per-key daily request counts. */
        usageDays: e.RETAIN_USAGE_DAYS,
      }),
    }),
  });
});

export type Config = z.output<typeof configFromEnv>;
export type GeocoderConfig = Config["geocoder"];
export type BatchConfig = Config["batch"];
/** Webhook delivery (src/webhooks/delivery-actor.ts). */
export type DeliverySettings = Config["webhooks"];
/** Scheduled jobs (src/scheduled/): the rate file to reconcile with and each job's cron pattern (null: off). */
export type JobsConfig = Config["jobs"];
export type RetentionConfig = JobsConfig["retention"];

/** A setting the operator must fix: the CLI prints its message alone, in one line, and exits 1. */
export class ConfigError extends Error {}

/**
 * One bad variable in the operator's words: the value given and what it must be. zod's own wording
 * ("expected number, received NaN") names its types, not the setting's; our refinements' messages are kept.
 */
function problemOf(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const name = issue.path.join(".");
  const given = typeof issue.path[0] === "string" ? env[issue.path[0]] : undefined;
  const value = given === undefined ? "" : JSON.stringify(given);
  if (given !== undefined && issue.code === "invalid_type" && issue.expected === "number") return `${name}: ${value} is not a number`;
  if (given !== undefined && issue.code === "invalid_type" && issue.expected === "int") return `${name}: ${value} is not a whole number`;
  if (given !== undefined && issue.code === "too_small") return `${name}: ${value} is below the least allowed, ${String(issue.minimum)}`;
  if (given !== undefined && issue.code === "too_big") return `${name}: ${value} is above the most allowed, ${String(issue.maximum)}`;
  if (given !== undefined && issue.code === "invalid_value") return `${name}: ${value} is not one of ${issue.values.map(String).join(", ")}`;
  return `${name}: ${issue.message}`;
}

/** Throws an error naming every bad variable, so a misconfigured service never starts. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configFromEnv.safeParse(env);
  if (!parsed.success) throw new ConfigError(`invalid configuration: ${parsed.error.issues.map((issue) => problemOf(issue, env)).join("; ")}`);
  return parsed.data;
}
