/**
 * Issuing, verifying and revoking API keys: the key format on one side, the store on the other.
 */
import { timingSafeEqual } from "node:crypto";
import type { Db, KeyEnv } from "../store/database.ts";
import { insertApiKey, insertApiKeyWithinCap, type KeyFinder } from "../store/api-keys.repository.ts";
import { limitsOfColumns } from "../store/organization-limits.repository.ts";
import { findOrganization } from "../store/organizations.repository.ts";
import type { OrganizationLimits } from "../organization-limits.ts";
import { checkKeyShape, hashKey, issueKey } from "./api-key.ts";

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  label: string;
  env: KeyEnv;
  created_at: string;
}

export class KeyError extends Error {}

/**
 * Issues a key. With `maxActive`, refused when the organization already holds that many active
 * keys (revoked ones do not count): every key gets its own request bucket, so an organization's
 * keys are capped as well as its requests (docs/api/README.md, "Rate limits").
 */
export async function createKey(db: Db, organizationId: string, label: string, env: KeyEnv, maxActive?: number): Promise<CreatedKey> {
  const trimmed = label.trim();
  if (!trimmed) throw new KeyError("a key needs a descriptive label");
  if (trimmed.length > 100) throw new KeyError("a key label is at most 100 characters");
  if (!(await findOrganization(db, organizationId))) throw new KeyError(`no organization ${organizationId}`);
  const issued = issueKey(env);
  const fields = { organizationId, label: trimmed, env, prefix: issued.prefix, keyHash: issued.hash };
  const row = maxActive === undefined ? await insertApiKey(db, fields) : await insertApiKeyWithinCap(db, fields, maxActive);
  if (!row) throw new KeyError(`this organization already has ${maxActive} active API keys, the most it may hold; revoke a key it no longer uses before creating another`);
  return { id: row.id, key: issued.key, prefix: row.prefix, label: row.label, env: row.env, created_at: row.created_at };
}

export interface Principal {
  keyId: string;
  organizationId: string;
  env: KeyEnv;
  prefix: string;
  /** The organization is in trial (made by open sign-up, not verified yet): it gets the trial allowance. */
  trial: boolean;
  /**
   * The limits an operator set for the organization, null where the setting applies: read with the
   * verdict and trusted as long as it is, so a change moves the key epoch (src/organization-limits.ts).
   */
  limits: OrganizationLimits;
}

export type Verification =
  | { ok: true; principal: Principal }
  | { ok: false; reason: "malformed" | "unknown" | "revoked" | "suspended" };

/**
 * Verifies a presented key against the store on every call. Hashes are compared in constant
 * time so a response's timing says nothing about how much of a hash matched.
 */
export async function verifyKey(findKeys: KeyFinder, key: string): Promise<Verification> {
  const shape = checkKeyShape(key);
  if (!shape.ok) return { ok: false, reason: "malformed" };
  const presented = Buffer.from(hashKey(key), "hex");
  for (const candidate of await findKeys(shape.prefix)) {
    if (!timingSafeEqual(presented, Buffer.from(candidate.key_hash, "hex"))) continue;
    if (candidate.key_status !== "active") return { ok: false, reason: "revoked" };
    if (candidate.org_status !== "active") return { ok: false, reason: "suspended" };
    return {
      ok: true,
      principal: { keyId: candidate.id, organizationId: candidate.organization_id, env: shape.env, prefix: shape.prefix, trial: candidate.org_verified_at === null, limits: limitsOfColumns(candidate) },
    };
  }
  return { ok: false, reason: "unknown" };
}
