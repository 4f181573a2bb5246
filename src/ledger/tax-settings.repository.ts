/** The organization's tax settings (migration 2026-12-02-410): no row means the defaults. */
import type { Db } from "../store/database.ts";
import type { RoundingBasis } from "../tax/compute-tax.ts";

export interface TaxSettings {
  roundingBasis: RoundingBasis;
}

/** Invoice basis unless the organization chose items: one rounding per jurisdiction is what most invoices show. */
export const DEFAULT_TAX_SETTINGS: TaxSettings = { roundingBasis: "invoice" };

export async function readTaxSettings(db: Db, organizationId: string): Promise<TaxSettings> {
  const row = await db.selectFrom("tax_settings").select("rounding_basis").where("organization_id", "=", organizationId).executeTakeFirst();
  return row ? { roundingBasis: row.rounding_basis === "item" ? "item" : "invoice" } : DEFAULT_TAX_SETTINGS;
}

/** The settings of several organizations in one query, in the order asked (repeats allowed). */
export async function readManyTaxSettings(db: Db, organizationIds: readonly string[]): Promise<TaxSettings[]> {
  const rows = await db.selectFrom("tax_settings").select(["organization_id", "rounding_basis"]).where("organization_id", "in", [...new Set(organizationIds)]).execute();
  const chosen = new Map(rows.map((row) => [row.organization_id, row.rounding_basis]));
  return organizationIds.map((id) => (chosen.has(id) ? { roundingBasis: chosen.get(id) === "item" ? "item" : "invoice" } : DEFAULT_TAX_SETTINGS));
}

export async function writeTaxSettings(db: Db, organizationId: string, settings: TaxSettings, now: Date): Promise<void> {
  await db
    .insertInto("tax_settings")
    .values({ organization_id: organizationId, rounding_basis: settings.roundingBasis, updated_at: now.toISOString() })
    .onConflict((oc) => oc.column("organization_id").doUpdateSet({ rounding_basis: settings.roundingBasis, updated_at: now.toISOString() }))
    .execute();
}
