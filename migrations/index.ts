/**
 * Every migration, in order. Listed statically (not discovered from the file system) so the
 * same set runs under tsx, vitest, compiled JS and Deno. Migrations import nothing from src/.
 */
import type { Migration } from "kysely/migration";
import * as organizationsAndApiKeys from "./2026-11-21-001-organizations-and-api-keys.ts";
import * as webhooksOutboxJobs from "./2026-11-21-010-webhooks-outbox-jobs.ts";
import * as batchJobs from "./2026-11-21-020-batch-jobs.ts";
import * as usersSessionsUsage from "./2026-11-21-030-users-sessions-usage.ts";
import * as jobRuns from "./2026-11-21-040-job-runs.ts";
import * as signInCountersFormTokens from "./2026-11-22-050-sign-in-counters-form-tokens.ts";
import * as boundaryFile from "./2026-11-23-060-boundary-file.ts";
import * as keyEpoch from "./2026-11-23-070-key-epoch.ts";
import * as boundaryImportLease from "./2026-11-24-080-boundary-import-lease.ts";
import * as batchFairShares from "./2026-11-25-090-batch-fair-shares.ts";
import * as boundaryImportReport from "./2026-11-25-100-boundary-import-report.ts";
import * as retention from "./2026-11-25-230-retention.ts";
import * as certificatePages from "./2026-11-25-240-certificate-pages.ts";
import * as boundaryCities from "./2026-11-27-250-boundary-cities.ts";
import * as batchIgnoredColumns from "./2026-11-27-260-batch-ignored-columns.ts";
import * as deliveryTurnsEndpointHealth from "./2026-11-27-310-delivery-turns-endpoint-health.ts";
import * as knownDevices from "./2026-11-27-320-known-devices.ts";
import * as trialOrganizations from "./2026-11-27-330-trial-organizations.ts";
import * as batchWaitingFor from "./2026-11-27-340-batch-waiting-for.ts";
import * as organizationLimits from "./2026-11-27-350-organization-limits.ts";
import * as passwordResets from "./2026-11-27-370-password-resets.ts";
import * as attemptResponseExcerpt from "./2026-11-27-380-attempt-response-excerpt.ts";
import * as batchPackedResults from "./2026-12-01-390-batch-packed-results.ts";
import * as taxLedger from "./2026-12-02-400-tax-ledger.ts";
import * as taxLocationsSettings from "./2026-12-02-410-tax-locations-settings.ts";
import * as returnSumsIndex from "./2026-12-02-420-return-sums-index.ts";
import * as batchOrderJobs from "./2026-12-02-440-batch-order-jobs.ts";
import * as boundaryStreets from "./2026-12-02-450-boundary-streets.ts";
import * as usageOutcomes from "./2026-12-02-460-usage-outcomes.ts";

export const migrations: Record<string, Migration> = {
  "2026-11-21-001-organizations-and-api-keys": organizationsAndApiKeys,
  "2026-11-21-010-webhooks-outbox-jobs": webhooksOutboxJobs,
  "2026-11-21-020-batch-jobs": batchJobs,
  "2026-11-21-030-users-sessions-usage": usersSessionsUsage,
  "2026-11-21-040-job-runs": jobRuns,
  "2026-11-22-050-sign-in-counters-form-tokens": signInCountersFormTokens,
  "2026-11-23-060-boundary-file": boundaryFile,
  "2026-11-23-070-key-epoch": keyEpoch,
  "2026-11-24-080-boundary-import-lease": boundaryImportLease,
  "2026-11-25-090-batch-fair-shares": batchFairShares,
  "2026-11-25-100-boundary-import-report": boundaryImportReport,
  "2026-11-25-230-retention": retention,
  "2026-11-25-240-certificate-pages": certificatePages,
  "2026-11-27-250-boundary-cities": boundaryCities,
  "2026-11-27-260-batch-ignored-columns": batchIgnoredColumns,
  "2026-11-27-310-delivery-turns-endpoint-health": deliveryTurnsEndpointHealth,
  "2026-11-27-320-known-devices": knownDevices,
  "2026-11-27-330-trial-organizations": trialOrganizations,
  "2026-11-27-340-batch-waiting-for": batchWaitingFor,
  "2026-11-27-350-organization-limits": organizationLimits,
  "2026-11-27-370-password-resets": passwordResets,
  "2026-11-27-380-attempt-response-excerpt": attemptResponseExcerpt,
  "2026-12-01-390-batch-packed-results": batchPackedResults,
  "2026-12-02-400-tax-ledger": taxLedger,
  "2026-12-02-410-tax-locations-settings": taxLocationsSettings,
  "2026-12-02-420-return-sums-index": returnSumsIndex,
  "2026-12-02-440-batch-order-jobs": batchOrderJobs,
  "2026-12-02-450-boundary-streets": boundaryStreets,
  "2026-12-02-460-usage-outcomes": usageOutcomes,
};
