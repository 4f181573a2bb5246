/** Customer exemption certificates, registered through the API so expiry reminders can be sent. */
import { newId } from "../ids.ts";
import type { Db } from "./database.ts";
import { lockOrganization } from "./organizations.repository.ts";
import type { Certificate } from "./certificates.table.ts";

export interface NewCertificateFields {
  organizationId: string;
  customerId: string;
  customerName: string;
  exemptReason: string;
  expiresOn: string;
}

/**
 * Records the certificate unless the organization already keeps `limit` (returns null then).
 * Counted and written under the organization's lock, so requests at once cannot overshoot it.
 */
export async function insertCertificateWithin(db: Db, fields: NewCertificateFields, now: Date, limit: number): Promise<Certificate | null> {
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, fields.organizationId);
    if ((await countCertificates(trx, fields.organizationId)) >= limit) return null;
    return insertCertificate(trx, fields, now);
  });
}

export async function countCertificates(db: Db, organizationId: string): Promise<number> {
  const row = await db.selectFrom("certificates").select((eb) => eb.fn.countAll<number>().as("n")).where("organization_id", "=", organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
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

/** Where a page of the list starts: just after this certificate in (expires_on, id) order. */
export interface CertificatePosition {
  expiresOn: string;
  id: string;
}

/**
 * One page of the organization's certificates in (expires_on, id) order, starting after `after`.
 * Keyset paging: a certificate added or deleted meanwhile never makes a walk skip or repeat one.
 */
export async function listCertificates(db: Db, organizationId: string, page: { limit: number; after: CertificatePosition | null }): Promise<Certificate[]> {
  const { after } = page;
  return db
    .selectFrom("certificates")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .$if(after !== null, (query) =>
      query.where((eb) => eb.or([eb("expires_on", ">", after!.expiresOn), eb.and([eb("expires_on", "=", after!.expiresOn), eb("id", ">", after!.id)])])),
    )
    .orderBy("expires_on")
    .orderBy("id")
    .limit(page.limit)
    .execute();
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
