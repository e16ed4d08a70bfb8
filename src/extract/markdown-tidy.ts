/**
 * Tidies turndown's output: no runs of blank lines, no trailing spaces (nor the no-break spaces
 * editors end paragraphs with, or fill an empty one with: "<p>&nbsp;</p>"), no blank edges.
 */
export function tidyMarkdown(md: string): string {
  const trimmed = endsLineWithSpace(md)
    ? // The lookbehind starts a match only where a run begins: without it, a long run inside a
      // line is tried from each of its characters.
      md.replace(/(?<![ \t\u00a0])[ \t\u00a0]+$/gm, "")
    : md;
  return withoutBareRules(trimmed.replace(BLANK_RUN, blankRunsOutsideFences(trimmed)).trim());
}

/** A rule with only blank lines between it and the next (what separated them was removed), or at an edge. */
const RULE_RUN = /(?<=^|\n)\* \* \*(?:\n\n\* \* \*)+(?=\n|$)/g;
const EDGE_RULE = /^\* \* \*(?:\n+|$)|\n+\* \* \*$/g;

/**
 * A separator separates something: rules in a row (the blocks between them went: a landing page's
 * tiles between `<hr>`s) are one, and a rule at the start or end of the content (after a dropped
 * header, before a dropped footer) goes. A fenced code block's lines are its own.
 */
function withoutBareRules(md: string): string {
  if (!md.includes("* * *")) return md;
  const fences = fencedRanges(md);
  const outside = (at: number): boolean => !fences.some(([start, end]) => start <= at && at < end);
  return md
    .replace(RULE_RUN, (run, at: number) => (outside(at) ? "* * *" : run))
    .replace(EDGE_RULE, (rule, at: number) => (outside(at + rule.length - 1) ? "" : rule));
}

/** Two or more blank lines in a row. */
const BLANK_RUN = /\n{3,}/g;

/**
 * A line opening or closing a fenced code block: three or more backticks or tildes, indented or
 * not, after a list item's marker or a quote's `>` ("- ```" opens the code of an item).
 */
const FENCE_LINE = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|>[ \t]?)*(`{3,}|~{3,})([^\n]*)$/gm;

/**
 * A `replace` callback for `md` making each run of blank lines one, except inside a fenced code
 * block, whose blank lines are the code's own (two between Python's functions). Fences are found
 * once, at the first run, and runs come in order, so a page of many blocks costs one pass.
 */
function blankRunsOutsideFences(md: string): (run: string, at: number) => string {
  let fences: [number, number][] | null = null;
  let next = 0;
  return (run, at) => {
    fences ??= fencedRanges(md);
    while (next < fences.length && fences[next]![1] <= at) next++;
    const fence = fences[next];
    return fence !== undefined && fence[0] <= at ? run : "\n\n";
  };
}

/**
 * Where fenced code blocks lie, [start, end) offsets from their opening line to their closing one
 * (or the text's end). A backtick fence's info string has no backtick (CommonMark), so a line of
 * inline code with three backticks opens nothing.
 */
export function fencedRanges(md: string): [number, number][] {
  const out: [number, number][] = [];
  if (!md.includes("```") && !md.includes("~~~")) return out;
  let open: string | null = null;
  let openAt = 0;
  FENCE_LINE.lastIndex = 0;
  for (let m = FENCE_LINE.exec(md); m !== null; m = FENCE_LINE.exec(md)) {
    const mark = m[1]!;
    const rest = m[2]!;
    if (open === null) {
      if (mark[0] === "~" || !rest.includes("`")) [open, openAt] = [mark, m.index];
    } else if (mark[0] === open[0] && mark.length >= open.length && rest.trim() === "") {
      out.push([openAt, m.index]);
      open = null;
    }
  }
  if (open !== null) out.push([openAt, md.length]);
  return out;
}

/**
 * Whether some line of `md` ends in a space, tab or no-break space, found from the line ends: the
 * pattern that removes them tries every space between words, a page's worth of failed matches.
 * True whenever unsure (a line ends in a character other than "\n" that `$` also reads as one).
 */
function endsLineWithSpace(md: string): boolean {
  if (md.includes("\r") || md.includes("\u2028") || md.includes("\u2029")) return true;
  for (let end = md.indexOf("\n"); ; end = md.indexOf("\n", end + 1)) {
    const c = md.charCodeAt((end < 0 ? md.length : end) - 1);
    if (c === 32 || c === 9 || c === 0xa0) return true;
    if (end < 0) return false;
  }
}
