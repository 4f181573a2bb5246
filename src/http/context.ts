/**
 * What the HTTP layer is given at start-up, complete and never changed afterwards (the composition
 * root, service.ts, builds it once); nothing in it reads the environment.
 */
import type { KeyCheck } from "../auth/key-check.ts";
import type { Principal } from "../auth/key-service.ts";
import type { AddressLookups } from "../batch/address-lookups.ts";
import type { Config } from "../config.ts";
import type { ZipIndex } from "../geo/zip-index.ts";
import type { DataStatus } from "../freshness/data-status.ts";
import type { RatesFreshness } from "../freshness/rates-freshness.ts";
import type { RateData } from "../freshness/rate-data.ts";
import type { Db } from "../store/database.ts";
import type { LedgerService } from "../ledger/ledger-service.ts";
import type { TaxService } from "../ledger/tax-service.ts";
import type { UsageRecorder } from "../usage/usage-recorder.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { ReturnService } from "../returns/return-service.ts";
import type { WebhookService } from "../webhooks/webhook-service.ts";

export type ApiContext = Readonly<ApiParts>;

interface ApiParts {
  config: Pick<Config, "errorsUrl" | "reconcileStaleAfterDays" | "geoDataDir" | "certificatesPerOrganization" | "batch" | "rateLimits">;
  /** The rate source: its `table` is read at each use, so a reconciliation's rebuilt table is answered from at once. */
  rates: Pick<RateData, "table">;
  zips: ZipIndex;
  db: Db;
  /** API key verdicts and the epoch that says whether they hold (src/auth/key-check.ts). */
  keys: KeyCheck;
  limiter: RateLimiter;
  /** Counts each key's requests per day by outcome for the dashboard; absent in contexts that do not count. */
  usage?: UsageRecorder;
  now: () => Date;
  /** How current the rates are: last reconciled, confirmed through (src/freshness/rates-freshness.ts). */
  freshness: () => RatesFreshness | Promise<RatesFreshness>;
  /** The full data status the dashboard shows in one line (`buckeye data status` prints the same). */
  dataStatus: () => Promise<DataStatus>;
  /** The webhook actions and their rules (src/webhooks/webhook-service.ts), shared with the dashboard. */
  webhooks: WebhookService;
  /** Address, coordinate and batch lookups: the geo worker pool, the geocoder, the batch job runner. */
  lookups: AddressLookups;
  /** The UST 1 worksheets (src/returns/return-service.ts), shared with the dashboard. */
  returns: ReturnService;
  /** The tax on a sale and the ledger that records it (src/ledger/). */
  tax: { service: TaxService; ledger: LedgerService };
}

declare module "h3" {
  interface H3EventContext {
    requestId?: string;
    principal?: Principal;
  }
}
