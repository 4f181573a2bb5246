/**
 * The limits an operator set per organization (src/organization-limits.ts): a row per organization
 * that has any, a nullable column per limit. Every write moves the key epoch through the table's
 * triggers (migrations/2026-11-27-350-organization-limits.ts), so cached key verdicts, which carry
 * the limits, are read again on every instance.
 */
import { LIMIT_NAMES, NO_OWN_LIMITS, type LimitName, type OrganizationLimits } from "../organization-limits.ts";
import type { Db, OrganizationLimitsTable } from "./database.ts";

type LimitColumn = Exclude<keyof OrganizationLimitsTable, "organization_id" | "updated_at">;

/** Each limit's column. */
export const LIMIT_COLUMNS: { readonly [K in LimitName]: LimitColumn } = {
  requestsPerSecondPerKey: "requests_per_second_per_key",
  requestsPerSecondPerOrganization: "requests_per_second_per_org",
  activeKeys: "active_keys",
  jobsInFlight: "jobs_in_flight",
  jobsStored: "jobs_stored",
  rowsPerJob: "rows_per_job",
  retentionDays: "retention_days",
};

/** A row's columns (or a joined row's, all null when the organization has no row) as limits. */
export function limitsOfColumns(row: { readonly [C in LimitColumn]: number | string | null | undefined } | undefined): OrganizationLimits {
  if (!row) return NO_OWN_LIMITS;
  const limits = Object.fromEntries(LIMIT_NAMES.map((name) => [name, row[LIMIT_COLUMNS[name]] == null ? null : Number(row[LIMIT_COLUMNS[name]])])) as OrganizationLimits;
  return LIMIT_NAMES.some((name) => limits[name] !== null) ? limits : NO_OWN_LIMITS;
}

export async function findOrganizationLimits(db: Db, organizationId: string): Promise<OrganizationLimits> {
  return limitsOfColumns(await db.selectFrom("organization_limits").selectAll().where("organization_id", "=", organizationId).executeTakeFirst());
}

/** Every organization with at least one limit of its own, with its limits. */
export async function listOrganizationLimits(db: Db): Promise<Map<string, OrganizationLimits>> {
  const rows = await db.selectFrom("organization_limits").selectAll().execute();
  const out = new Map<string, OrganizationLimits>();
  for (const row of rows) {
    const limits = limitsOfColumns(row);
    if (limits !== NO_OWN_LIMITS) out.set(row.organization_id, limits);
  }
  return out;
}

/**
 * Sets the given limits (a value) and clears others (null); limits not named keep what they were.
 * One statement, so the change and the epoch's move commit together. Answers the limits now.
 */
export async function changeOrganizationLimits(db: Db, organizationId: string, changes: Partial<OrganizationLimits>, now: Date): Promise<OrganizationLimits> {
  const set: Partial<Record<LimitColumn, number | null>> = {};
  for (const name of LIMIT_NAMES) if (changes[name] !== undefined) set[LIMIT_COLUMNS[name]] = changes[name];
  const updatedAt = now.toISOString();
  await db
    .insertInto("organization_limits")
    .values({ organization_id: organizationId, ...set, updated_at: updatedAt })
    .onConflict((oc) => oc.column("organization_id").doUpdateSet({ ...set, updated_at: updatedAt }))
    .execute();
  return findOrganizationLimits(db, organizationId);
}
