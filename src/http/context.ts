/** What the HTTP layer is given at start-up; nothing in it reads the environment. */
import type { KeyCheck } from "../auth/key-check.ts";
import type { Principal } from "../auth/key-service.ts";
import type { AddressLookups } from "../batch/address-lookups.ts";
import type { Config } from "../config.ts";
import type { ZipIndex } from "../geo/zip-index.ts";
import type { DataStatus } from "../currency/data-status.ts";
import type { RatesCurrency } from "../currency/rates-currency.ts";
import type { RateTable } from "../rates/rate-table.ts";
import type { Db } from "../store/database.ts";
import type { UsageRecorder } from "../usage/usage-recorder.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { SecretBox } from "../webhooks/secret-box.ts";

export interface ApiContext {
  config: Pick<Config, "errorsUrl" | "rateLimitPerSecond" | "reconcileStaleAfterDays" | "signUpLimit"> & { webhooks: Pick<Config["webhooks"], "privateTargets"> };
  table: RateTable;
  zips: ZipIndex;
  db: Db;
  /** API key verdicts and the epoch that says whether they hold (src/auth/key-check.ts). */
  keys: KeyCheck;
  limiter: RateLimiter;
  /** Counts allowed requests per key per day for the dashboard; absent in contexts that do not count. */
  usage?: UsageRecorder;
  now: () => Date;
  /** How current the rates are: last reconciled, confirmed through (src/currency/rates-currency.ts). */
  currency: () => RatesCurrency | Promise<RatesCurrency>;
  /** The full data status the dashboard shows in one line (`buckeye data status` prints the same). */
  dataStatus: () => Promise<DataStatus>;
  /** Seals webhook signing secrets as they are written (SECRETS_KEY). */
  secrets: SecretBox;
  /** Tells the webhook delivery actor that events were just published, so it need not wait for its next poll. */
  wakeDeliveries: () => void;
  /** Address, coordinate and batch lookups: the geo worker pool, the geocoder, the batch job runner. */
  lookups: AddressLookups;
}

declare module "h3" {
  interface H3EventContext {
    requestId?: string;
    principal?: Principal;
  }
}
