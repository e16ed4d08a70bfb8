import { diffMarkdown } from "../changes/index.ts";
import { MAX_STORED_DIFF_CHARS } from "../schemas/watch.ts";

/** Most added (and removed) lines a check lists. */
const MAX_LINES_LISTED = 200;
/** Longest line a check lists. */
const MAX_LINE_CHARS = 2000;
/** Longest quote of a line in a summary. */
const QUOTE_CHARS = 80;
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
  // diffMarkdown searches line by line, or past its budget replaces the differing middle whole.
  const diff = diffMarkdown(before, after);
  const changes = diff?.json.files[0]?.chunks.flatMap((chunk) => chunk.changes) ?? [];
  const added = nonBlank(changes.filter((c) => c.type === "add").map((c) => c.content.slice(1)));
  const removed = nonBlank(changes.filter((c) => c.type === "del").map((c) => c.content.slice(1)));
  let text = diff?.text ?? null;
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
