import { diffLines } from "diff";
import { diffMarkdown } from "../changes/index.ts";
import { MAX_STORED_DIFF_CHARS } from "../schemas/watch.ts";

/** Most added (and removed) lines a check lists. */
const MAX_LINES_LISTED = 200;
/** Longest line a check lists. */
const MAX_LINE_CHARS = 2000;
/** Longest quote of a line in a summary. */
const QUOTE_CHARS = 80;
/**
 * Past this many changed lines (or this long), the diff is not searched line by line: the
 * `diff` library's search grows with the lines times the changes (a rewritten page of 5,000
 * lines takes it over 30 s), and a check must not hold the event loop. The diff is then one
 * hunk replacing everything between the first and the last changed line.
 */
const MAX_EDIT_LINES = 300;
const DIFF_BUDGET_MS = 250;
const HEADER = `${"=".repeat(67)}\n--- previous.md\n+++ current.md\n`;

/** How the content compared now stands to the previous check's. */
export interface Comparison {
  status: "baseline" | "same" | "changed";
  changed: boolean;
  summary: string;
  addedText: string[];
  removedText: string[];
  /** The unified diff (previous.md -> current.md), only when changed; cut at MAX_STORED_DIFF_CHARS. */
  diff: string | null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const quote = (line: string) =>
  `"${line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS - 1)}…` : line}"`;
const nonBlank = (lines: string[]) => lines.filter((line) => line.trim() !== "");
const listed = (lines: string[]) =>
  lines.slice(0, MAX_LINES_LISTED).map((line) => line.slice(0, MAX_LINE_CHARS));

function changeSummary(added: string[], removed: string[]): string {
  const counts = `${plural(added.length, "line")} added, ${removed.length} removed`;
  const [first, gone] = [added[0], removed[0]];
  if (first !== undefined && gone !== undefined) return `${counts}: ${quote(gone)} -> ${quote(first)}`;
  if (first !== undefined) return `${counts}: ${quote(first)}`;
  if (gone !== undefined) return `${counts}: ${quote(gone)} is gone`;
  return counts;
}

const lines = (text: string) => (text === "" ? [] : text.slice(0, -1).split("\n"));

/**
 * The unified diff of a change too large to search: one hunk that removes every line from the
 * first to the last that differ and adds the new ones, with three lines of context each side.
 */
function replacementDiff(old: string[], now: string[]): { added: string[]; removed: string[]; text: string } {
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  )
    tail++;
  const removed = old.slice(head, old.length - tail);
  const added = now.slice(head, now.length - tail);
  const start = Math.max(0, head - 3);
  const before = old.slice(start, head);
  const after = old.slice(old.length - tail, Math.min(old.length, old.length - tail + 3));
  const oldCount = before.length + removed.length + after.length;
  const newCount = before.length + added.length + after.length;
  // A range of no lines is written as the line before it, as diff and git do.
  const range = (count: number) => `${count === 0 ? start : start + 1},${count}`;
  const body = [
    ...before.map((line) => ` ${line}`),
    ...removed.map((line) => `-${line}`),
    ...added.map((line) => `+${line}`),
    ...after.map((line) => ` ${line}`),
  ];
  return {
    added,
    removed,
    text: `${HEADER}@@ -${range(oldCount)} +${range(newCount)} @@\n${body.join("\n")}\n`,
  };
}

/**
 * Compares the content of this check with the previous check's (null: there was none, so this
 * one is the baseline). Equal fingerprints are the same content; otherwise the line-based
 * unified diff (src/changes, the `diff` library) gives the added and removed lines.
 */
export function compareContent(
  previous: { fingerprint: string; content: string } | null,
  current: { fingerprint: string; content: string },
): Comparison {
  const none = { addedText: [], removedText: [], diff: null };
  if (!previous) {
    const lines = current.content === "" ? 0 : current.content.split("\n").length;
    return {
      status: "baseline",
      changed: false,
      summary: `Baseline recorded: ${plural(lines, "line")} of content`,
      ...none,
    };
  }
  if (previous.fingerprint === current.fingerprint) {
    return { status: "same", changed: false, summary: "No change since the previous check", ...none };
  }
  // Both texts end in a newline so that a last line reads as a line, not as "no newline at end".
  const closed = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`);
  const [before, after] = [closed(previous.content), closed(current.content)];
  const searchable = diffLines(before, after, { maxEditLength: MAX_EDIT_LINES, timeout: DIFF_BUDGET_MS });
  let added: string[];
  let removed: string[];
  let text: string | null;
  if (searchable) {
    const diff = diffMarkdown(before, after);
    const changes = diff?.json.files[0]?.chunks.flatMap((chunk) => chunk.changes) ?? [];
    added = changes.filter((c) => c.type === "add").map((c) => c.content.slice(1));
    removed = changes.filter((c) => c.type === "del").map((c) => c.content.slice(1));
    text = diff?.text ?? null;
  } else {
    ({ added, removed, text } = replacementDiff(lines(before), lines(after)));
  }
  [added, removed] = [nonBlank(added), nonBlank(removed)];
  if (text && text.length > MAX_STORED_DIFF_CHARS) {
    text = `${text.slice(0, MAX_STORED_DIFF_CHARS)}\n… diff cut at ${MAX_STORED_DIFF_CHARS} characters\n`;
  }
  return {
    status: "changed",
    changed: true,
    summary: changeSummary(added, removed),
    addedText: listed(added),
    removedText: listed(removed),
    diff: text,
  };
}
