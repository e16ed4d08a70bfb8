import { formatPatch, structuredPatch } from "diff";

/** One line of a hunk, as Firecrawl's change tracking (parse-diff's shape) describes it. */
export interface DiffChange {
  type: "normal" | "add" | "del";
  /** The line with its diff prefix (" ", "+" or "-"). */
  content: string;
  normal?: true;
  add?: true;
  del?: true;
  /** Line number in the new text (add) or the old one (del). */
  ln?: number;
  /** Old and new line numbers of an unchanged line. */
  ln1?: number;
  ln2?: number;
}

/** A hunk: its "@@ -a,b +c,d @@" header and its lines. */
export interface DiffChunk {
  content: string;
  changes: DiffChange[];
}

/** A git-style diff as text (a unified patch) and as JSON (files, chunks, changes). */
export interface MarkdownDiff {
  text: string;
  json: { files: { from: string; to: string; chunks: DiffChunk[] }[] };
}

const FROM = "previous.md";
const TO = "current.md";
/**
 * Past this many changed lines or this long, the diff is not searched line by line (jsdiff's
 * search grows with lines times changes: a rewritten 5,000-line page takes it over 30 s); it is
 * then one hunk replacing everything between the first and the last line that differ.
 */
const MAX_EDIT_LINES = 300;
const DIFF_BUDGET_MS = 250;

/** The one-hunk patch of a change too large to search: the differing middle replaced whole. */
function replacementPatch(previous: string, current: string) {
  const old = previous.split("\n");
  const now = current.split("\n");
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  )
    tail++;
  const start = Math.max(0, head - 3);
  const before = old.slice(start, head);
  const after = old.slice(old.length - tail, Math.min(old.length, old.length - tail + 3));
  const lines = [
    ...before.map((l) => ` ${l}`),
    ...old.slice(head, old.length - tail).map((l) => `-${l}`),
    ...now.slice(head, now.length - tail).map((l) => `+${l}`),
    ...after.map((l) => ` ${l}`),
  ];
  const oldLines = lines.filter((l) => l[0] !== "+").length;
  const newLines = lines.filter((l) => l[0] !== "-").length;
  return {
    oldFileName: FROM,
    newFileName: TO,
    oldHeader: "",
    newHeader: "",
    hunks: [{ oldStart: start + 1, oldLines, newStart: start + 1, newLines, lines }],
  };
}

/**
 * The unified diff of two markdown texts (three lines of context), or undefined when no line
 * differs. The JSON form numbers lines as a patch reader would: `ln` for an added line in the
 * new text and for a removed one in the old text, `ln1`/`ln2` for an unchanged line.
 */
export function diffMarkdown(previous: string, current: string): MarkdownDiff | undefined {
  const patch =
    structuredPatch(FROM, TO, previous, current, "", "", {
      context: 3,
      maxEditLength: MAX_EDIT_LINES,
      timeout: DIFF_BUDGET_MS,
    }) ?? replacementPatch(previous, current);
  if (!patch.hunks.some((hunk) => hunk.lines.some((line) => line[0] === "+" || line[0] === "-"))) {
    return undefined;
  }
  const chunks = patch.hunks.map((hunk): DiffChunk => {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    const changes: DiffChange[] = [];
    for (const line of hunk.lines) {
      // jsdiff marks a missing final newline with a "\" line; it is no line of either text.
      if (line[0] === "\\") continue;
      if (line[0] === "+") changes.push({ type: "add", add: true, ln: newLine++, content: line });
      else if (line[0] === "-") changes.push({ type: "del", del: true, ln: oldLine++, content: line });
      else changes.push({ type: "normal", normal: true, ln1: oldLine++, ln2: newLine++, content: line });
    }
    return {
      content: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      changes,
    };
  });
  const text = formatPatch(patch);
  return { text, json: { files: [{ from: FROM, to: TO, chunks }] } };
}
