/**
 * The account actions and their rules, written once for the dashboard and the CLI: sign-up (an
 * organization with its owner) or an organization alone, verification of a trial organization,
 * sign-in, password changes, API keys (create, list, revoke) and suspension. The adapters read a form or command-line options, call an
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
import { createOrganization, findOrganization, listOrganizations, setFilingFrequency, setOrganizationName, setOrganizationStatus, verifyOrganization } from "../store/organizations.repository.ts";
import { issueReset, resetFor, resetPassword } from "./password-reset.ts";
import { AccountError, changePassword, checkSignIn, createOrganizationWithOwner, organizationNameProblem, type NewAccount } from "./accounts.ts";

export interface AccountServiceDeps {
  db: Db;
  now: () => Date;
  /** Called after a committed change to a key's verdict (src/auth/key-check.ts). */
  keyChanged: () => Promise<void>;
  /** Active API keys one organization may hold (ACTIVE_KEYS_PER_ORG); revoked keys do not count. */
  activeKeysPerOrganization: number;
}

export type AccountService = ReturnType<typeof createAccountService>;

export function createAccountService(deps: AccountServiceDeps) {
  const { db, now } = deps;

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

    /** A one-time password reset link's token for this email, or null when no account has it (password-reset.ts). */
    issuePasswordReset: (email: string) => issueReset(db, email, now()),

    /** The account a reset link is for, while it still works. */
    passwordResetFor: (token: string) => resetFor(db, token, now()),

    /** Sets a new password through a reset link; ends every session of the user. */
    resetPassword: (token: string, password: string) => resetPassword(db, token, password, now()),

    changePassword: (session: { userId: string; sessionId: string }, current: string, next: string) => changePassword(db, session, current, next),

    /** Suspends or reactivates an organization; its keys are refused or accepted from their next request. Null when there is no such organization. */
    async setStatus(organizationId: string, status: OrganizationStatus): Promise<Organization | null> {
      const row = await setOrganizationStatus(db, organizationId, status);
      if (!row) return null;
      await deps.keyChanged();
      return row;
    },

    /** A new key, shown once: the answer is the only place its secret appears. Refused past the organization's cap on active keys. */
    createKey: (organizationId: string, label: string, env: KeyEnv): Promise<CreatedKey> => createKey(db, organizationId, label, env, deps.activeKeysPerOrganization),

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
