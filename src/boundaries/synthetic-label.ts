/**
 * A synthetic file's version carries this label (OHB2026Q4SEP17-SYNTHETIC): it never takes the name
 * of the state's file of that quarter, so the real one still imports, and every place that shows a
 * version (answers, `boundaries status`, batch results) says the data is made up. Pure: the lookup
 * threads read it too.
 */
export const SYNTHETIC_LABEL = "-SYNTHETIC";

export function labelSynthetic(version: string): string {
  return isSyntheticVersion(version) ? version : `${version}${SYNTHETIC_LABEL}`;
}

export function isSyntheticVersion(version: string): boolean {
  return version.endsWith(SYNTHETIC_LABEL);
}
