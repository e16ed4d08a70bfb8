/** The nearest known name to a mistyped one: for flags, config keys, commands. */

/** How far apart two names are: edits (insert, delete, replace, swap two neighbours). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name `given` most likely meant, or undefined when none is close: one that starts
 * with it (`--only-main` for `--only-main-content`), else the nearest within a third of its
 * length in edits (typos such as `--limt`, `--max-dpeth`).
 */
export function closest(given: string, known: readonly string[]): string | undefined {
  const g = given.toLowerCase();
  if (g.length >= 3) {
    const started = known.filter((k) => k.toLowerCase().startsWith(g));
    if (started.length) return started.sort((a, b) => a.length - b.length)[0];
  }
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(g.length / 3)) + 1;
  for (const k of known) {
    const d = distance(g, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}
