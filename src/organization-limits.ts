/**
 * The limits an operator may set per organization (docs/operations/organization-limits.md): for each,
 * its name on the command line, its bounds, the setting whose value it replaces, and how a customer
 * reads it. An organization's own limits are a record with null where it has none; the setting's value
 * applies there (`effectiveLimits`). Pure: the store keeps them, the key verdicts carry them, and the
 * limiter, the batch routes, key creation and the retention sweep are handed the values.
 */

/** The most rows one batch job may hold, and the default: a batch thread reads a job of this size well within its heap ceiling. */
export const MAX_JOB_ROWS = 100_000;

export interface LimitDefinition {
  /** The CLI flag (`buckeye org limits set <org> --<flag> N`) and the name `unset` takes. */
  flag: string;
  /** The setting (src/config.ts) whose value applies where the organization has none; null for a built-in ceiling. */
  setting: string | null;
  max: number;
  /** What it is, for an operator (CLI, docs). */
  what: string;
  /** What it is, in a customer's words (the dashboard's settings page), with its unit. */
  customer: string;
  unit: string;
}

/**
 * The maxima are what one organization may sensibly be given on one deployment, not what the
 * service could bear: a typo (an extra zero or three) is refused rather than stored.
 */
export const LIMITS = {
  requestsPerSecondPerKey: {
    flag: "requests-per-second-per-key",
    setting: "RATE_LIMIT_PER_SECOND",
    max: 10_000,
    what: "requests per second per API key",
    customer: "Requests per second, per API key",
    unit: "per second",
  },
  requestsPerSecondPerOrganization: {
    flag: "requests-per-second-per-org",
    setting: "RATE_LIMIT_PER_SECOND_PER_ORG",
    max: 50_000,
    what: "requests per second across all the organization's API keys",
    customer: "Requests per second, across all your API keys",
    unit: "per second",
  },
  activeKeys: {
    flag: "active-keys",
    setting: "ACTIVE_KEYS_PER_ORG",
    max: 1_000,
    what: "active (not revoked) API keys",
    customer: "Active API keys",
    unit: "keys",
  },
  jobsInFlight: {
    flag: "jobs-in-flight",
    setting: "BATCH_JOBS_IN_FLIGHT_PER_ORG",
    max: 1_000,
    what: "batch jobs queued or running at once",
    customer: "Batch jobs queued or running at once",
    unit: "jobs",
  },
  jobsStored: {
    flag: "jobs-stored",
    setting: "BATCH_JOBS_STORED_PER_ORG",
    max: 10_000,
    what: "batch jobs kept stored (completed ones until deleted or swept)",
    customer: "Batch jobs kept (queued, running and completed)",
    unit: "jobs",
  },
  rowsPerJob: {
    flag: "rows-per-job",
    setting: null,
    max: MAX_JOB_ROWS,
    what: `rows per batch job (at most ${MAX_JOB_ROWS.toLocaleString("en-US")}, the service's ceiling)`,
    customer: "Rows per batch job",
    unit: "rows",
  },
  retentionDays: {
    flag: "retention-days",
    setting: "RETAIN_BATCH_JOBS_DAYS",
    max: 3650,
    what: "days a completed batch job and its results are kept",
    customer: "Days a completed batch job's results are kept",
    unit: "days",
  },
} as const satisfies Record<string, LimitDefinition>;

export type LimitName = keyof typeof LIMITS;
export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];

/** An organization's own limits: null where it has none and the setting applies. */
export type OrganizationLimits = { readonly [K in LimitName]: number | null };
/** Every limit's value for one organization, or the defaults. */
export type LimitValues = { readonly [K in LimitName]: number };

export const NO_OWN_LIMITS: OrganizationLimits = Object.freeze(Object.fromEntries(LIMIT_NAMES.map((name) => [name, null])) as OrganizationLimits);

/** The defaults from the configuration (each limit's setting), read structurally so this file imports nothing. */
export function limitDefaults(config: {
  rateLimits: { perKey: number; perOrganization: number };
  activeKeysPerOrganization: number;
  batch: { inFlightPerOrganization: number; storedPerOrganization: number };
  jobs: { retention: { batchJobsDays: number } };
}): LimitValues {
  return Object.freeze({
    requestsPerSecondPerKey: config.rateLimits.perKey,
    requestsPerSecondPerOrganization: config.rateLimits.perOrganization,
    activeKeys: config.activeKeysPerOrganization,
    jobsInFlight: config.batch.inFlightPerOrganization,
    jobsStored: config.batch.storedPerOrganization,
    rowsPerJob: MAX_JOB_ROWS,
    retentionDays: config.jobs.retention.batchJobsDays,
  });
}

export function effectiveLimits(own: OrganizationLimits, defaults: LimitValues): LimitValues {
  return Object.fromEntries(LIMIT_NAMES.map((name) => [name, own[name] ?? defaults[name]])) as LimitValues;
}

export function limitByFlag(flag: string): LimitName | undefined {
  return LIMIT_NAMES.find((name) => LIMITS[name].flag === flag);
}

/**
 * The value an operator typed for `name`, or why it is refused: a whole number from 1 to the
 * limit's maximum, in plain digits (no sign, point, exponent or separator, so nothing is guessed).
 */
export function parseLimitValue(name: LimitName, text: string): { ok: true; value: number } | { ok: false; problem: string } {
  const { flag, max } = LIMITS[name];
  const digits = text.trim();
  const range = `a whole number from 1 to ${max.toLocaleString("en-US")}`;
  if (!/^\d+$/.test(digits)) return { ok: false, problem: `--${flag} must be ${range}, not "${text}"` };
  const value = Number(digits);
  if (value < 1 || value > max) return { ok: false, problem: `--${flag} must be ${range}, not ${text}` };
  return { ok: true, value };
}
