/** What the dashboard's handlers are given: the store, the clock and the few services they call. */
import type { DataStatus } from "../currency/data-status.ts";
import type { Db } from "../store/database.ts";
import type { UsageRecorder } from "../usage/usage-recorder.ts";
import type { SecretBox } from "../webhooks/secret-box.ts";
import type { AllowedTargets } from "../webhooks/address-guard.ts";
import type { SignInThrottle } from "./sign-in-throttle.ts";
import type { SignUpThrottle } from "./sign-up-throttle.ts";
import type { SubmitOnce } from "./submit-once.ts";
import type { Logger } from "../log.ts";


export interface DashboardDeps {
  db: Db;
  now: () => Date;
  /** The API's per-key request limit, shown on the usage page. */
  rateLimitPerSecond: number;
  usage?: UsageRecorder;
  throttle: SignInThrottle;
  signUps: SignUpThrottle;
  /** Non-public address kinds webhooks may reach (WEBHOOK_PRIVATE_TARGETS). */
  webhookTargets: AllowedTargets;
  once: SubmitOnce;
  /** Seals webhook signing secrets as they are written (SECRETS_KEY). */
  secrets: SecretBox;
  /** Call after committing a key revocation: instances that cache key verdicts by a Redis epoch learn of it. */
  keyChanged: () => Promise<void>;
  /** Tells the webhook delivery actor that an event was just published. */
  wakeDeliveries: () => void;
  /** How current the rates and boundaries are, for the currency line. */
  dataStatus: () => Promise<DataStatus>;
  log: Logger;
}
