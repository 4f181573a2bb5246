/**
 * The usage page's sentence on what the rate limits mean for this organization today: a pure
 * function of its active keys and the two limits, so each case reads right (no keys, fewer keys
 * than the organization's limit needs, more).
 */
export function rateLimitSentence(activeKeys: number, perKey: number, perOrganization: number): string {
  const n = (value: number) => value.toLocaleString("en-US");
  if (activeKeys === 0) {
    return `Your organization has no active keys yet; once it has some, all of them together may make up to ${n(perOrganization)} requests per second.`;
  }
  const keys = activeKeys === 1 ? "1 active key" : `${n(activeKeys)} active keys`;
  if (activeKeys * perKey < perOrganization) {
    return `With ${keys}, your organization can make up to ${n(activeKeys * perKey)} requests per second in all (${n(perKey)} per key). More keys raise that, up to the organization's limit of ${n(perOrganization)}.`;
  }
  return `With ${keys}, your organization can make up to ${n(perOrganization)} requests per second in all, the organization's limit; more keys do not raise it.`;
}
