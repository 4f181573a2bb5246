/** Customer exemption certificates, registered through the API so expiry reminders can be sent. */
import { newId } from "../ids.ts";
import type { Db } from "./database.ts";
import type { Certificate } from "./webhooks-and-jobs.tables.ts";

export interface NewCertificateFields {
  organizationId: string;
  customerId: string;
  customerName: string;
  exemptReason: string;
  expiresOn: string;
}

export async function insertCertificate(db: Db, fields: NewCertificateFields, now: Date): Promise<Certificate> {
  const row: Certificate = {
    id: newId("cert"),
    organization_id: fields.organizationId,
    customer_id: fields.customerId,
    customer_name: fields.customerName,
    exempt_reason: fields.exemptReason,
    expires_on: fields.expiresOn,
    created_at: now.toISOString(),
  };
  await db.insertInto("certificates").values(row).execute();
  return row;
}

export async function listCertificates(db: Db, organizationId: string): Promise<Certificate[]> {
  return db.selectFrom("certificates").selectAll().where("organization_id", "=", organizationId).orderBy("expires_on").orderBy("id").execute();
}

export async function findCertificate(db: Db, organizationId: string, id: string): Promise<Certificate | undefined> {
  return db.selectFrom("certificates").selectAll().where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
}

export async function deleteCertificate(db: Db, organizationId: string, id: string): Promise<boolean> {
  const row = await db.deleteFrom("certificates").where("organization_id", "=", organizationId).where("id", "=", id).returning("id").executeTakeFirst();
  return row !== undefined;
}

/** Certificates of active organizations expiring in [from, to] (inclusive dates). */
export async function listCertificatesExpiring(db: Db, from: string, to: string): Promise<Certificate[]> {
  return db
    .selectFrom("certificates")
    .innerJoin("organizations", "organizations.id", "certificates.organization_id")
    .selectAll("certificates")
    .where("organizations.status", "=", "active")
    .where("certificates.expires_on", ">=", from)
    .where("certificates.expires_on", "<=", to)
    .orderBy("certificates.expires_on")
    .orderBy("certificates.id")
    .execute();
}
