/**
 * Accounts: an organization and its owner created together (sign-up and `buckeye org create
 * --email --password`), checking a sign-in, and changing a password. Input rules live here so
 * the dashboard and the CLI refuse the same things.
 */
import type { Db, Organization } from "../store/database.ts";
import type { User } from "../store/dashboard.tables.ts";
import { createOrganization, findOrganization } from "../store/organizations.repository.ts";
import { deleteOtherSessions } from "../store/sessions.repository.ts";
import { emailTaken, findUserByEmail, findUserById, insertUser, setPasswordHash } from "../store/users.repository.ts";
import { decoyHash, hashPassword, verifyPassword } from "./password.ts";
import { passwordProblem } from "./password-policy.ts";

export type AccountField = "name" | "email" | "password" | "filing_frequency";

export interface FieldProblem {
  field: AccountField;
  message: string;
}

/**
 * Input refused, with every field's problem at once (a form shows each beside its field);
 * `field` and `message` are the first problem's.
 */
export class AccountError extends Error {
  readonly problems: readonly FieldProblem[];

  constructor(field: AccountField, message: string, ...more: FieldProblem[]) {
    super(message);
    this.problems = [{ field, message }, ...more];
  }

  get field(): AccountField {
    return this.problems[0]!.field;
  }

  /** Throws when there is any problem. */
  static throwIfAny(problems: readonly FieldProblem[]): void {
    const [first, ...more] = problems;
    if (first) throw new AccountError(first.field, first.message, ...more);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function organizationNameProblem(name: string): string | null {
  if (!name.trim()) return "Enter your organization's name.";
  if (name.trim().length > 100) return "Use at most 100 characters.";
  return null;
}

export function emailProblem(email: string): string | null {
  if (!email) return "Enter your email address.";
  if (email.length > 254 || !EMAIL.test(email)) return "Enter an email address such as name@example.com.";
  return null;
}

export interface NewAccount {
  organizationName: string;
  email: string;
  password: string;
}

/** Creates the organization (in trial when `trial`) and its owner in one transaction; throws AccountError on bad input. */
export async function createOrganizationWithOwner(db: Db, input: NewAccount, now: Date = new Date(), options: { trial?: boolean } = {}): Promise<{ organization: Organization; owner: User }> {
  const name = input.organizationName.trim();
  const email = normalizeEmail(input.email);
  const nameIssue = organizationNameProblem(name);
  const emailIssue = emailProblem(email) ?? ((await emailTaken(db, email)) ? "An account with this email already exists. Sign in instead." : null);
  const passwordIssue = await passwordProblem(input.password, [email, name]);
  AccountError.throwIfAny([
    ...(nameIssue ? [{ field: "name" as const, message: nameIssue }] : []),
    ...(emailIssue ? [{ field: "email" as const, message: emailIssue }] : []),
    ...(passwordIssue ? [{ field: "password" as const, message: passwordIssue }] : []),
  ]);
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const organization = await createOrganization(trx, name, now, options);
      const owner = await insertUser(trx, { organizationId: organization.id, email, passwordHash, role: "owner" }, now);
      return { organization, owner };
    });
  } catch (error) {
    // Two sign-ups with one email at the same moment: the unique index lets one through.
    if (await emailTaken(db, email)) throw new AccountError("email", "An account with this email already exists. Sign in instead.");
    throw error;
  }
}

export type PasswordChange =
  | { ok: true; signedOut: number }
  | { ok: false; currentWrong: boolean; problems: { field: "current_password" | "new_password"; message: string }[] };

/**
 * Changes a signed-in user's password: the current one must be given, the new one must meet the
 * sign-up rules, and every other session of the user ends, so a device that was signed in
 * without the owner's knowledge is signed out with the old password.
 */
export async function changePassword(db: Db, session: { userId: string; sessionId: string }, current: string, next: string): Promise<PasswordChange> {
  const user = await findUserById(db, session.userId);
  if (!user) throw new Error(`no user ${session.userId}`);
  const currentWrong = !(await verifyPassword(current, user.password_hash));
  const organization = await findOrganization(db, user.organization_id);
  const problem = (await passwordProblem(next, [user.email, organization?.name ?? ""])) ?? (!currentWrong && next === current ? "Choose a password different from the current one." : null);
  const problems = [
    ...(currentWrong ? [{ field: "current_password" as const, message: "This is not your current password." }] : []),
    ...(problem ? [{ field: "new_password" as const, message: problem }] : []),
  ];
  if (problems.length > 0) return { ok: false, currentWrong, problems };
  const passwordHash = await hashPassword(next);
  const signedOut = await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, passwordHash);
    return deleteOtherSessions(trx, user.id, session.sessionId);
  });
  return { ok: true, signedOut };
}

export type SignInResult =
  | { ok: true; user: User; organization: Organization }
  | { ok: false; reason: "wrong-credentials" }
  | { ok: false; reason: "suspended"; organization: Organization };

/** Checks an email and password. A suspended organization is reported only after a correct password. */
export async function checkSignIn(db: Db, emailInput: string, password: string): Promise<SignInResult> {
  const found = await findUserByEmail(db, normalizeEmail(emailInput));
  if (!found) {
    await verifyPassword(password, await decoyHash());
    return { ok: false, reason: "wrong-credentials" };
  }
  if (!(await verifyPassword(password, found.user.password_hash))) return { ok: false, reason: "wrong-credentials" };
  if (found.organization.status !== "active") return { ok: false, reason: "suspended", organization: found.organization };
  return { ok: true, user: found.user, organization: found.organization };
}
