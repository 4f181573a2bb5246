/**
 * The account actions and their rules, written once for the dashboard and the CLI: sign-up (an
 * organization with its owner) or an organization alone, verification of a trial organization,
 * sign-in, password changes and resets, API keys (create, list, revoke), suspension, and the limits an operator sets per
 * organization; and the throttles that slow strangers without shutting the owner out (sign-in-throttle.ts,
 * reset-throttle.ts), which the dashboard asks before it acts. The adapters read a form or command-line options, call an
 * action here and render the answer or the AccountError / KeyError it throws.
 *
 * The rule that makes this a service rather than a list of repository calls: a change that moves a
 * key's verdict (a revocation, a suspension, a reactivation) is announced after its commit through
 * `keyChanged`, so instances that learn the key epoch from Redis refuse a revoked key on its next
 * request (docs/operations/several-instances.md). An adapter cannot forget it.
 */
import { createKey, KeyError, type CreatedKey } from "../auth/key-service.ts";
import { listApiKeys, revokeApiKey } from "../store/api-keys.repository.ts";
import type { ApiKey, Db, FilingFrequency, KeyEnv, Organization, OrganizationStatus } from "../store/database.ts";
import { changeOrganizationLimits, findOrganizationLimits } from "../store/organization-limits.repository.ts";
import { createOrganization, findOrganization, listOrganizations, setFilingFrequency, setOrganizationName, setOrganizationStatus, verifyOrganization } from "../store/organizations.repository.ts";
import { effectiveLimits, LIMIT_NAMES, LIMITS, type LimitName, type LimitValues, type OrganizationLimits } from "../organization-limits.ts";
import { forgetDevicesBut, knownDevice, rememberNewDevice } from "./known-devices.ts";
import { issueReset, resetFor, resetPassword, type IssuedReset, type ResetResult } from "./password-reset.ts";
import { ResetThrottle } from "./reset-throttle.ts";
import { SignInThrottle } from "./sign-in-throttle.ts";
import { findUserByEmail } from "../store/users.repository.ts";
import { AccountError, changePassword, checkSignIn, createOrganizationWithOwner, normalizeEmail, organizationNameProblem, type NewAccount } from "./accounts.ts";

export interface AccountServiceDeps {
  db: Db;
  now: () => Date;
  /** Called after a committed change to a key's verdict (src/auth/key-check.ts). */
  keyChanged: () => Promise<void>;
  /** Each limit's value where an organization has none of its own (src/organization-limits.ts). */
  limitDefaults: LimitValues;
}

/** One limit of an organization as shown to an operator or a customer: its value, and whether it is the organization's own or the default. */
export interface ShownLimit {
  name: LimitName;
  value: number;
  own: boolean;
}

/** An organization's limits, each with where its value comes from. */
export function showLimits(own: OrganizationLimits, defaults: LimitValues): ShownLimit[] {
  const values = effectiveLimits(own, defaults);
  return LIMIT_NAMES.map((name) => ({ name, value: values[name], own: own[name] !== null }));
}

/** A completed reset: the password reset's result, and the token of the device it was completed on when that device is new to the account. */
export type CompletedReset = Exclude<ResetResult, { ok: true }> | (Extract<ResetResult, { ok: true }> & { newDeviceToken: string | null });

/**
 * What a reset request from the dashboard came to: a link to mail; nothing, because no account
 * has the email; or nothing, because the account was mailed a link that still works within
 * RESET_MAIL_SPACING_MS (reset-throttle.ts). The requester is told the same in every case.
 */
export type ResetRequest = { outcome: "mail"; issued: IssuedReset } | { outcome: "no-account" } | { outcome: "recently-mailed" };

/** A change of limits that breaks a rule: nothing was changed. */
export class LimitsError extends Error {}

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: AccountServiceDeps) {
  const { db, now } = deps;
  const signIns = new SignInThrottle(db, now);
  const resets = new ResetThrottle(db, now);

  async function requireOrganization(organizationId: string): Promise<Organization> {
    const organization = await findOrganization(db, organizationId);
    if (!organization) throw new KeyError(`no organization ${organizationId}`);
    return organization;
  }

  return {
    /**
     * An organization and its owner, created together: by open sign-up in the dashboard, in trial
     * until an operator verifies it; by `buckeye org create --email`, verified, since an operator made it.
     */
    signUp: (input: NewAccount, options: { trial: boolean }) => createOrganizationWithOwner(db, input, now(), options),

    /** An organization without an owner (`buckeye org create --name`). */
    async createOrganization(name: string): Promise<Organization> {
      const problem = organizationNameProblem(name);
      if (problem) throw new AccountError("name", problem);
      return createOrganization(db, name.trim(), now());
    },

    listOrganizations: () => listOrganizations(db),

    /** The dashboard's organization settings: its name and filing frequency, each checked, every problem reported at once. */
    async updateSettings(organizationId: string, input: { name: string; filingFrequency: string }): Promise<void> {
      const name = input.name.trim();
      const nameIssue = organizationNameProblem(name);
      const frequency = input.filingFrequency;
      const frequencyOk = frequency === "monthly" || frequency === "semiannual";
      AccountError.throwIfAny([
        ...(nameIssue ? [{ field: "name" as const, message: nameIssue }] : []),
        ...(frequencyOk ? [] : [{ field: "filing_frequency" as const, message: "Choose monthly or semiannual filing." }]),
      ]);
      await db.transaction().execute(async (trx) => {
        await setOrganizationName(trx, organizationId, name);
        await setFilingFrequency(trx, organizationId, frequency as FilingFrequency);
      });
    },

    /**
     * Ends an organization's trial (`buckeye org verify`): its keys get the full allowance from their
     * next request (the verdict they are cached with says trial, so the change is announced). Null
     * when there is no such organization.
     */
    async verify(organizationId: string): Promise<Organization | null> {
      const row = await verifyOrganization(db, organizationId, now());
      if (!row) return null;
      await deps.keyChanged();
      return row;
    },

    checkSignIn: (email: string, password: string) => checkSignIn(db, email, password),

    /** A one-time password reset link's token for this email, or null when no account has it (password-reset.ts); the operator's, never spaced. */
    issuePasswordReset: (email: string) => issueReset(db, email, now()),

    /** The throttle of reset requests per client address (reset-throttle.ts): the dashboard asks it before accepting one. */
    resets,

    /**
     * A reset link asked for in the dashboard, to be mailed: at most one per RESET_MAIL_SPACING_MS
     * per account, so strangers asking for the owner's address flood no inbox, except from a
     * device known to the account (`deviceToken`, the one the requesting browser holds), which
     * is the owner's and always gets its mail.
     */
    async requestPasswordReset(emailInput: string, deviceToken: string | null): Promise<ResetRequest> {
      const email = normalizeEmail(emailInput);
      if (!(await findUserByEmail(db, email))) return { outcome: "no-account" };
      const owners = (await knownDevice(db, deviceToken, email, now())) !== null;
      if (!owners && !(await resets.mayMail(email))) return { outcome: "recently-mailed" };
      const issued = await issueReset(db, email, now());
      return issued ? { outcome: "mail", issued } : { outcome: "no-account" };
    },

    /** The account a reset link is for, while it still works. */
    passwordResetFor: (token: string) => resetFor(db, token, now()),

    /** The sign-in throttle (sign-in-throttle.ts): the dashboard asks it before checking a password. */
    signIns,

    /**
     * Sets a new password through a reset link and ends every session of the user. A completed
     * reset proves the owner (the link came to the account's mailbox), so it lifts the account's
     * sign-in lock and the lock of the device it was completed on, and that device stays known to
     * the account, or becomes known (its new token is in the answer, for its cookie); every other
     * device is forgotten, as a password change forgets them. `deviceToken` is the token the
     * requesting browser holds, if any.
     */
    async resetPassword(token: string, password: string, deviceToken: string | null = null): Promise<CompletedReset> {
      const result = await resetPassword(db, token, password, now());
      if (!result.ok) return result;
      const device = await knownDevice(db, deviceToken, result.email, now());
      await forgetDevicesBut(db, result.userId, device);
      await signIns.ownerProven(result.email, device);
      return { ...result, newDeviceToken: device ? null : await rememberNewDevice(db, result.userId, now()) };
    },

    changePassword: (session: { userId: string; sessionId: string }, current: string, next: string) => changePassword(db, session, current, next),

    /** Suspends or reactivates an organization; its keys are refused or accepted from their next request. Null when there is no such organization. */
    async setStatus(organizationId: string, status: OrganizationStatus): Promise<Organization | null> {
      const row = await setOrganizationStatus(db, organizationId, status);
      if (!row) return null;
      await deps.keyChanged();
      return row;
    },

    /** A new key, shown once: the answer is the only place its secret appears. Refused past the organization's cap on active keys (its own, or ACTIVE_KEYS_PER_ORG). */
    async createKey(organizationId: string, label: string, env: KeyEnv): Promise<CreatedKey> {
      const own = await findOrganizationLimits(db, organizationId);
      return createKey(db, organizationId, label, env, own.activeKeys ?? deps.limitDefaults.activeKeys);
    },

    /** The organization's limits, each with its value and whether it is its own; null when there is no such organization. */
    async limits(organizationId: string): Promise<ShownLimit[] | null> {
      if (!(await findOrganization(db, organizationId))) return null;
      return showLimits(await findOrganizationLimits(db, organizationId), deps.limitDefaults);
    },

    /**
     * Sets some of an organization's limits (a value) and clears others back to their default
     * (null), in one statement; limits not named keep theirs. The key epoch moves with the commit
     * (the table's triggers) and is announced after it, so every instance applies the new limits
     * from the organization's next request. Values must already be parsed (parseLimitValue); they
     * are checked against their bounds again here, so no adapter can store one out of range.
     */
    async changeLimits(organizationId: string, changes: Partial<OrganizationLimits>): Promise<ShownLimit[]> {
      const named = LIMIT_NAMES.filter((name) => changes[name] !== undefined);
      if (named.length === 0) throw new LimitsError("name at least one limit to change");
      for (const name of named) {
        const value = changes[name];
        if (value !== null && (!Number.isInteger(value) || value! < 1 || value! > LIMITS[name].max)) {
          throw new LimitsError(`--${LIMITS[name].flag} must be a whole number from 1 to ${LIMITS[name].max.toLocaleString("en-US")}, not ${value}`);
        }
      }
      if (!(await findOrganization(db, organizationId))) throw new LimitsError(`no organization ${organizationId}`);
      const own = await changeOrganizationLimits(db, organizationId, changes, now());
      await deps.keyChanged();
      return showLimits(own, deps.limitDefaults);
    },

    async listKeys(organizationId: string): Promise<ApiKey[]> {
      await requireOrganization(organizationId);
      return listApiKeys(db, organizationId);
    },

    /**
     * Revokes the active key with this id or public prefix (within one organization when given);
     * it is refused from its next request. Answers the keys revoked, none when nothing matched.
     */
    async revokeKey(idOrPrefix: string, organizationId?: string): Promise<ApiKey[]> {
      const revoked = await revokeApiKey(db, idOrPrefix, organizationId, now());
      if (revoked.length > 0) await deps.keyChanged();
      return revoked;
    },
  };
}
