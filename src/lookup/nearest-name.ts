/**
 * The "did you mean" of a misspelt name: the one candidate within two edits (a swap of neighbouring
 * letters counts as one, the usual typo), or none when two are equally near. Written here rather than
 * taken from a package: one use, over Ohio's 88 county names.
 */
function editDistance(a: string, b: string): number {
  // Optimal string alignment: insertions, deletions, substitutions and adjacent transpositions.
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

export function nearestName(text: string, candidates: Iterable<string>): string | null {
  const wanted = text.trim().toLowerCase();
  const limit = Math.min(2, Math.floor(wanted.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  let tied = false;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance, tied] = [candidate, distance, false];
    else if (distance === bestDistance) tied = true;
  }
  return best !== null && !tied ? best : null;
}
