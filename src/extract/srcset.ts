/** One candidate of a `srcset`: its URL and descriptors (`["800w"]`, `["2x"]`, or none). */
export interface SrcsetCandidate {
  url: string;
  descriptors: string[];
}

const SPACE = /[ \t\n\f\r]/;

/**
 * A `srcset` read as the HTML standard reads it: a URL runs to whitespace (so commas inside it
 * stay, as image CDNs write them: `/c_crop,w_800/a.jpg`), a URL ending in commas has no
 * descriptors, and descriptors run to the next comma outside parentheses. Splitting on every comma
 * cut such URLs in pieces.
 */
export function parseSrcset(value: string): SrcsetCandidate[] {
  const out: SrcsetCandidate[] = [];
  const n = value.length;
  let i = 0;
  while (i < n) {
    while (i < n && (SPACE.test(value[i]!) || value[i] === ",")) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !SPACE.test(value[i]!)) i++;
    const url = value.slice(start, i);
    if (url.endsWith(",")) {
      out.push({ url: url.replace(/,+$/, ""), descriptors: [] });
      continue;
    }
    const from = i;
    let depth = 0;
    for (; i < n && (value[i] !== "," || depth > 0); i++) {
      if (value[i] === "(") depth++;
      else if (value[i] === ")" && depth > 0) depth--;
    }
    out.push({ url, descriptors: value.slice(from, i).trim().split(/\s+/).filter(Boolean) });
    i++;
  }
  return out;
}

/** Candidates written back as a `srcset`. */
export function formatSrcset(candidates: SrcsetCandidate[]): string {
  return candidates.map((c) => [c.url, ...c.descriptors].join(" ")).join(", ");
}

/** The widest candidate ("a.jpg 400w, b.jpg 800w" is b.jpg; densities count as widths), or the first without either. */
export function widestCandidate(value: string): string | undefined {
  let best: string | undefined;
  let bestSize = -1;
  for (const { url, descriptors } of parseSrcset(value)) {
    const size = Number.parseFloat(descriptors.find((d) => /^[\d.]+[wx]$/i.test(d)) ?? "0") || 0;
    if (size > bestSize) [best, bestSize] = [url, size];
  }
  return best;
}
