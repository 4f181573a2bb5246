/** What the dashboard's handlers are given: the store, the clock and the few services they call. */
import type { AccountService } from "../accounts/account-service.ts";
import type { DataStatus } from "../freshness/data-status.ts";
import type { Readiness } from "../freshness/readiness.ts";
import type { Db } from "../store/database.ts";
import type { UsageRecorder } from "../usage/usage-recorder.ts";
import type { WebhookService } from "../webhooks/webhook-service.ts";
import type { ReturnService } from "../returns/return-service.ts";
import type { SignInThrottle } from "../accounts/sign-in-throttle.ts";
import type { SignUpThrottle } from "./sign-up-throttle.ts";
import type { SubmitOnce } from "./submit-once.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { ResetThrottle } from "../accounts/reset-throttle.ts";
import type { ClientAddress } from "../web/client-address.ts";


export interface DashboardDeps {
  db: Db;
  now: () => Date;
  /** The API's request limits per key and per organization, shown on the usage page. */
  rateLimits: Readonly<{ perKey: number; perOrganization: number }>;
  usage?: UsageRecorder;
  /** The client's address the throttles count by: the socket's, or a trusted proxy's X-Forwarded-For (TRUSTED_PROXIES). */
  clientAddress: ClientAddress;
  throttle: SignInThrottle;
  signUps: SignUpThrottle;
  once: SubmitOnce;
  /** The webhook actions and their rules (src/webhooks/webhook-service.ts), shared with the API. */
  webhooks: WebhookService;
  /** The UST 1 worksheets (src/returns/return-service.ts), shared with the API. */
  returns: ReturnService;
  /** Sign-up, sign-in, passwords, keys and suspension (src/accounts/account-service.ts), shared with the CLI. */
  accounts: AccountService;
  /** How current the rates and boundaries are, for the freshness line. */
  dataStatus: () => Promise<DataStatus>;
  /** The check GET /readyz reports (src/freshness/readiness.ts), for the status page. */
  readiness: () => Promise<Readiness>;
  log: Logger;
  /** Password reset mail: the mailer and PUBLIC_URL, the start of the links it sends; null when SMTP_URL is unset. */
  mail: { mailer: Mailer; publicUrl: string } | null;
  resets: ResetThrottle;
  /** SUPPORT_CONTACT: an email address or URL customers are sent to for help; null when unset. */
  supportContact: string | null;
}

/** What the composition root gives the dashboard; it makes its throttles and form tokens itself. */
export type DashboardSetup = Omit<DashboardDeps, "clientAddress" | "throttle" | "signUps" | "once" | "log" | "resets"> & {
  /** Sign-up attempts one client address may make within 15 minutes (SIGN_UP_LIMIT). */
  signUpLimit: number;
  /** The reverse proxies whose X-Forwarded-For names the client (TRUSTED_PROXIES). */
  trustedProxies: readonly string[];
};
