/** "Did you mean …?" for a mistyped name: the known name nearest in edit distance, if near enough. */

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The known name closest to `name` (case aside), when it is a plausible typo: at most a third of
 * its length away (at least 1), or a name that contains it or is contained in it. Ties: first.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const n = name.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(n, k.toLowerCase());
    if (best === undefined || d < best.d) best = { name: k, d };
  }
  if (best === undefined) return undefined;
  if (best.d <= Math.max(1, Math.floor(n.length / 3))) return best.name;
  return known.find((k) => n.length >= 3 && (k.toLowerCase().includes(n) || n.includes(k.toLowerCase())));
}
