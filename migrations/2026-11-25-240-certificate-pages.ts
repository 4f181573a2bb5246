import type { Kysely } from "kysely";

/**
 * GET /api/v1/certificates comes in pages, in (expires_on, id) order from a cursor: this index
 * reads a page of an organization's certificates straight off, however many it keeps (up to
 * CERTIFICATES_PER_ORG), instead of sorting them all for each page.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("certificates_organization_pages").on("certificates").columns(["organization_id", "expires_on", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("certificates_organization_pages").execute();
}
