import type { Db, FilingFrequency, Organization, OrganizationStatus } from "./database.ts";
import { newId } from "../ids.ts";

export async function createOrganization(db: Db, name: string, now: Date = new Date()): Promise<Organization> {
  const row: Organization = {
    id: newId("org"),
    name,
    status: "active",
    filing_frequency: "monthly",
    created_at: now.toISOString(),
  };
  await db.insertInto("organizations").values(row).execute();
  return row;
}

/**
 * Holds the organization's row until the transaction ends, so a cap that counts the
 * organization's rows before adding one is not raced by a request on another instance: an UPDATE
 * that changes nothing takes the row lock on PostgreSQL and the write lock on SQLite, same SQL.
 */
export async function lockOrganization(db: Db, id: string): Promise<void> {
  await db.updateTable("organizations").set((eb) => ({ name: eb.ref("name") })).where("id", "=", id).execute();
}

export async function findOrganization(db: Db, id: string): Promise<Organization | undefined> {
  return db.selectFrom("organizations").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listOrganizations(db: Db): Promise<Organization[]> {
  return db.selectFrom("organizations").selectAll().orderBy("created_at").execute();
}

/** Returns the updated organization, or undefined when no organization has that id. */
export async function setOrganizationStatus(db: Db, id: string, status: OrganizationStatus): Promise<Organization | undefined> {
  await db.updateTable("organizations").set({ status }).where("id", "=", id).execute();
  return findOrganization(db, id);
}

export async function setFilingFrequency(db: Db, id: string, frequency: FilingFrequency): Promise<void> {
  await db.updateTable("organizations").set({ filing_frequency: frequency }).where("id", "=", id).execute();
}

export async function setOrganizationName(db: Db, id: string, name: string): Promise<void> {
  await db.updateTable("organizations").set({ name }).where("id", "=", id).execute();
}
