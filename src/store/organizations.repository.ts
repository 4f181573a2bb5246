import type { Db, FilingFrequency, Organization, OrganizationStatus } from "./database.ts";
import { newId } from "../ids.ts";

/** A new organization, verified unless `trial` (open sign-up makes trial ones; an operator's are verified). */
export async function createOrganization(db: Db, name: string, now: Date = new Date(), options: { trial?: boolean } = {}): Promise<Organization> {
  const row: Organization = {
    id: newId("org"),
    name,
    status: "active",
    filing_frequency: "monthly",
    created_at: now.toISOString(),
    verified_at: options.trial ? null : now.toISOString(),
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

/** Ends the organization's trial (kept as it was when verified already). Returns it, or undefined when no organization has that id. */
export async function verifyOrganization(db: Db, id: string, now: Date): Promise<Organization | undefined> {
  await db.updateTable("organizations").set({ verified_at: now.toISOString() }).where("id", "=", id).where("verified_at", "is", null).execute();
  return findOrganization(db, id);
}
