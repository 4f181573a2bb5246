/** The organization's own places (stores, offices), kept as the lookup that places each one (migration 2026-12-02-410). */
import { newId } from "../ids.ts";
import type { Db } from "../store/database.ts";
import type { TaxLocationRow } from "../store/tax-settings.tables.ts";

/** A lookup's fields, as a location keeps them. */
export interface Place {
  county?: string;
  zip?: string;
  address?: string;
  lat?: string;
  lon?: string;
}

export interface TaxLocation {
  id: string;
  name: string;
  place: Place;
  createdAt: string;
}

function toLocation(row: TaxLocationRow): TaxLocation {
  return { id: row.id, name: row.name, place: JSON.parse(row.place) as Place, createdAt: row.created_at };
}

export async function insertLocation(db: Db, organizationId: string, name: string, place: Place, now: Date): Promise<TaxLocation> {
  const row: TaxLocationRow = { id: newId("loc"), organization_id: organizationId, name, place: JSON.stringify(place), created_at: now.toISOString() };
  await db.insertInto("tax_locations").values(row).execute();
  return toLocation(row);
}

export async function findLocation(db: Db, organizationId: string, id: string): Promise<TaxLocation | undefined> {
  const row = await db.selectFrom("tax_locations").selectAll().where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
  return row && toLocation(row);
}

/** Every location of the organization, oldest first (an organization has a handful). */
export async function listLocations(db: Db, organizationId: string): Promise<TaxLocation[]> {
  const rows = await db.selectFrom("tax_locations").selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toLocation);
}

export async function deleteLocation(db: Db, organizationId: string, id: string): Promise<boolean> {
  const row = await db.deleteFrom("tax_locations").where("organization_id", "=", organizationId).where("id", "=", id).returning("id").executeTakeFirst();
  return row !== undefined;
}
