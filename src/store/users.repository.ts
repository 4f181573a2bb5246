/** Dashboard users: the people who sign in for an organization. */
import { newId } from "../ids.ts";
import type { Db, Organization } from "./database.ts";
import type { User, UserRole } from "./dashboard.tables.ts";

export interface NewUserFields {
  organizationId: string;
  email: string;
  passwordHash: string;
  role: UserRole;
}

export async function insertUser(db: Db, fields: NewUserFields, now: Date = new Date()): Promise<User> {
  const row: User = {
    id: newId("usr"),
    organization_id: fields.organizationId,
    email: fields.email,
    password_hash: fields.passwordHash,
    role: fields.role,
    created_at: now.toISOString(),
  };
  await db.insertInto("users").values(row).execute();
  return row;
}

export interface UserWithOrganization {
  user: User;
  organization: Organization;
}

/** The user with this (already normalized) email and the organization they belong to. */
export async function findUserByEmail(db: Db, email: string): Promise<UserWithOrganization | undefined> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user) return undefined;
  const organization = await db.selectFrom("organizations").selectAll().where("id", "=", user.organization_id).executeTakeFirstOrThrow();
  return { user, organization };
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  return (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()) !== undefined;
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
}
