/** Code-unit order, independent of the machine's locale, so generated files are the same everywhere. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
