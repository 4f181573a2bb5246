/** Row shapes of the organization's tax locations and settings (migration 2026-12-02-410). Listed in the `Database` interface of database.ts. */
import type { Selectable } from "kysely";

export interface TaxLocationsTable {
  id: string;
  organization_id: string;
  name: string;
  /** The lookup that places it, as JSON: {county?, zip?, address?, lat?, lon?}. */
  place: string;
  created_at: string;
}

export interface TaxSettingsTable {
  organization_id: string;
  /** "item" or "invoice": how the state's rounding rule is applied (SSUTA section 324 allows either). */
  rounding_basis: string;
  updated_at: string;
}

export type TaxLocationRow = Selectable<TaxLocationsTable>;
