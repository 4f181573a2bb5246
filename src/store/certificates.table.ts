/** Row shape of the certificates table (migration 2026-11-21-010). Listed in the `Database` interface of database.ts. */
import type { Selectable } from "kysely";

export interface CertificatesTable {
  id: string;
  organization_id: string;
  customer_id: string;
  customer_name: string;
  exempt_reason: string;
  expires_on: string;
  created_at: string;
}

export type Certificate = Selectable<CertificatesTable>;
