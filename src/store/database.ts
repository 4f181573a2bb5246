/**
 * The database schema as kysely sees it: one interface per table. Rows are not domain records;
 * repositories map them.
 */
import type { BatchChunksTable, BatchJobsTable, BatchTurnsTable } from "./batch-jobs.table.ts";
import type { Kysely, Selectable } from "kysely";
import type { CertificatesTable } from "./certificates.table.ts";
import type { DeliveriesTable, DeliveryAttemptsTable, DeliveryTurnsTable, EventsTable, WebhooksTable } from "./webhooks.tables.ts";
import type { ReconciliationsTable, RecordedRatePeriodsTable } from "./reconciliations.tables.ts";
import type { ApiKeyUsageTable, FormTokensTable, KnownDevicesTable, PasswordResetsTable, SessionsTable, SignInCountersTable, UsersTable } from "./dashboard.tables.ts";
import type { JobRunsTable } from "./job-runs.table.ts";
import type { TaxTransactionsTable } from "./tax-transactions.table.ts";
import type { TaxLocationsTable, TaxSettingsTable } from "./tax-settings.tables.ts";
import type { BoundaryCitiesTable, BoundaryImportLeaseTable, BoundaryStreetsTable, BoundaryPointerTable, BoundaryRecordsTable, BoundaryVersionsTable } from "./boundaries.table.ts";

export type OrganizationStatus = "active" | "suspended";
export type FilingFrequency = "monthly" | "semiannual";
export type KeyEnv = "live" | "test";
export type KeyStatus = "active" | "revoked";

export interface OrganizationsTable {
  id: string;
  name: string;
  status: OrganizationStatus;
  filing_frequency: FilingFrequency;
  created_at: string;
  /** When an operator verified it; null while it is in trial (migrations/2026-11-27-330-trial-organizations.ts). */
  verified_at: string | null;
}

/** An operator's limits for one organization; null: the setting applies (migrations/2026-11-27-350-organization-limits.ts). */
export interface OrganizationLimitsTable {
  organization_id: string;
  requests_per_second_per_key: number | null;
  requests_per_second_per_org: number | null;
  active_keys: number | null;
  jobs_in_flight: number | null;
  jobs_stored: number | null;
  rows_per_job: number | null;
  retention_days: number | null;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  label: string;
  env: KeyEnv;
  prefix: string;
  key_hash: string;
  status: KeyStatus;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface Database {
  organizations: OrganizationsTable;
  organization_limits: OrganizationLimitsTable;
  api_keys: ApiKeysTable;
  webhooks: WebhooksTable;
  events: EventsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  delivery_turns: DeliveryTurnsTable;
  certificates: CertificatesTable;
  tax_transactions: TaxTransactionsTable;
  tax_locations: TaxLocationsTable;
  tax_settings: TaxSettingsTable;
  reconciliations: ReconciliationsTable;
  recorded_rate_periods: RecordedRatePeriodsTable;
  batch_jobs: BatchJobsTable;
  batch_chunks: BatchChunksTable;
  batch_turns: BatchTurnsTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_key_usage: ApiKeyUsageTable;
  job_runs: JobRunsTable;
  sign_in_counters: SignInCountersTable;
  known_devices: KnownDevicesTable;
  password_resets: PasswordResetsTable;
  form_tokens: FormTokensTable;
  boundary_versions: BoundaryVersionsTable;
  boundary_pointer: BoundaryPointerTable;
  boundary_import_lease: BoundaryImportLeaseTable;
  boundary_records: BoundaryRecordsTable;
  boundary_cities: BoundaryCitiesTable;
  boundary_streets: BoundaryStreetsTable;
}

export type Db = Kysely<Database>;
export type Organization = Selectable<OrganizationsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
