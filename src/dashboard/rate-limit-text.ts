/**
 * The usage page's rate-limit card in words: a pure function of its active keys, the two limits and
 * whether the organization draws from the bucket every organization in trial shares (docs/guides/dashboard.md,
 * "Trial organizations"), so each case reads right (no keys, fewer keys than the organization's limit needs,
 * more, in trial) and the card never promises a trial organization a rate of its own.
 */
export function rateLimitSentence(activeKeys: number, perKey: number, perOrganization: number, sharedByTrials = false): string {
  const n = (value: number) => value.toLocaleString("en-US");
  if (sharedByTrials) {
    return `Your organization is in trial: until Buckeye verifies it, its keys and those of every other organization in trial share ${n(perOrganization)} requests per second, so yours may get fewer when others are busy.`;
  }
  if (activeKeys === 0) {
    return `Your organization has no active keys yet; once it has some, all of them together may make up to ${n(perOrganization)} requests per second.`;
  }
  const keys = activeKeys === 1 ? "1 active key" : `${n(activeKeys)} active keys`;
  if (activeKeys * perKey < perOrganization) {
    return `With ${keys}, your organization can make up to ${n(activeKeys * perKey)} requests per second in all (${n(perKey)} per key). More keys raise that, up to the organization's limit of ${n(perOrganization)}.`;
  }
  return `With ${keys}, your organization can make up to ${n(perOrganization)} requests per second in all, the organization's limit; more keys do not raise it.`;
}

/** What the card's organization figure is: the organization's own, or the one every organization in trial shares. */
export function organizationLimitLabel(sharedByTrials: boolean): string {
  return sharedByTrials ? "requests per second, shared by every organization in trial, yours included" : "requests per second, for your organization across all its keys";
}
