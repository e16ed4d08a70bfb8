/**
 * Markdown to the blocks a chunk is made of: headings, paragraphs, fenced or indented code,
 * tables (consecutive lines starting with `|`) and list items (with their continuation lines
 * and nested items). A block is the unit that is never split unless it alone is too long.
 */

import { headingTitle } from "./heading.ts";

/** What a block is; decides how it may be split and whether overlap may take part of it. */
export type BlockKind = "heading" | "paragraph" | "code" | "table" | "list";

/** One block of a page's markdown: its lines as written (without surrounding blank lines). */
export interface Block {
  kind: BlockKind;
  lines: string[];
  /** A heading's level, 1 to 6. */
  level?: number;
  /** A heading's plain text (see `headingTitle`). */
  title?: string;
  /** No blank line between it and the block before (a tight list's next item): joined by one line break. */
  tight?: boolean;
}

const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const INDENTED_CODE = /^(?: {4}|\t)/;

const NOT_SPACE = /\S/;
const isBlank = (line: string) => !NOT_SPACE.test(line);

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 0x20 || line.charCodeAt(i) === 0x09)) i++;
  return i;
}

/**
 * Whether a line is plain text, one no rule below can take for anything but a paragraph's: it
 * starts with an ASCII letter (most lines of a page), so with neither white space nor a marker.
 */
function isPlainText(line: string): boolean {
  const code = line.charCodeAt(0) | 0x20;
  return code >= 0x61 && code <= 0x7a;
}

/**
 * The character the rules below look at after up to 3 spaces ("  - item" gives "-"), as a UTF-16
 * code: -1 when 4 spaces come first, NaN when the line ends first.
 */
function markOf(line: string): number {
  let i = 0;
  while (i < 4 && i < line.length && line.charCodeAt(i) === 0x20) i++;
  if (i >= line.length) return Number.NaN;
  return i < 4 ? line.charCodeAt(i) : -1;
}

/** Whether a UTF-16 code is printable ASCII (so not white space). */
const isPrintable = (code: number) => code > 0x20 && code < 0x7f;
/** Whether a line with this mark may be a list item: a bullet or a digit. */
const mayBeListItem = (mark: number) =>
  mark === 0x2d || mark === 0x2a || mark === 0x2b || (mark >= 0x30 && mark <= 0x39);
/** Whether a line with this mark may be a thematic break: "-", "*" or "_". */
const mayBeBreak = (mark: number) => mark === 0x2d || mark === 0x2a || mark === 0x5f;

/** Whether a line may open a fence: after spaces and tabs comes a backtick, a tilde or other white space. */
function mayOpenFence(line: string): boolean {
  const i = indentOf(line);
  if (i >= line.length) return false;
  const code = line.charCodeAt(i);
  return code === 0x60 || code === 0x7e || !isPrintable(code);
}

/** The fence that opens a fenced code block on this line, if one does (backtick info strings hold no backticks). */
export function fenceOpening(line: string): string | undefined {
  if (!mayOpenFence(line)) return undefined;
  const m = FENCE.exec(line);
  if (!m) return undefined;
  const marker = m[1]!;
  if (marker[0] === "`" && m[2]!.includes("`")) return undefined;
  return marker;
}

/** Whether `line` closes a block opened by `marker`: the same character, at least as many, nothing after. */
export function closesFence(line: string, marker: string): boolean {
  if (!line.includes(marker)) return false;
  const trimmed = line.trim();
  return trimmed.length >= marker.length && trimmed === marker[0]!.repeat(trimmed.length);
}

/** Whether a line that is not indented under a list item starts a block of its own (so is no lazy continuation). */
function startsBlock(line: string): boolean {
  if (isPlainText(line)) return false;
  const mark = markOf(line);
  return (
    (mayBeListItem(mark) && LIST_ITEM.test(line)) ||
    (mark === 0x23 && ATX.test(line)) ||
    (mayBeBreak(mark) && THEMATIC_BREAK.test(line)) ||
    mark === 0x7c ||
    fenceOpening(line) !== undefined
  );
}

/**
 * Whether a list item starts on this line. Inside a paragraph only a bullet or "1." does, as in
 * CommonMark, so a wrapped line that happens to start with "2019. " stays text.
 */
function opensListItem(line: string, inParagraph: boolean): boolean {
  const m = LIST_ITEM.exec(line);
  if (!m) return false;
  return !inParagraph || !/^\d/.test(m[2]!) || Number.parseInt(m[2]!, 10) === 1;
}

/** Index past the fenced code block opened at `start` (to the end of the text when it never closes). */
export function endOfFence(lines: string[], start: number, marker: string): number {
  for (let i = start + 1; i < lines.length; i++) if (closesFence(lines[i]!, marker)) return i + 1;
  return lines.length;
}

/**
 * Index past the list item starting at `start`: its indented continuation lines, nested items and
 * code (blank lines included while what follows is still indented), and lazy continuation lines
 * (unindented text right after a line of the item).
 */
function endOfListItem(lines: string[], start: number): number {
  const markerIndent = indentOf(lines[start]!);
  let i = start + 1;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      let next = i + 1;
      while (next < lines.length && isBlank(lines[next]!)) next++;
      if (next < lines.length && indentOf(lines[next]!) > markerIndent) {
        i = next;
        continue;
      }
      break;
    }
    if (indentOf(line) > markerIndent) {
      const marker = fenceOpening(line);
      i = marker ? endOfFence(lines, i, marker) : i + 1;
      continue;
    }
    if (startsBlock(line)) break;
    i++;
  }
  return i;
}

/** Index past the indented code block starting at `start` (blank lines inside it included). */
function endOfIndentedCode(lines: string[], start: number): number {
  let end = start + 1;
  for (let i = start + 1; i < lines.length; i++) {
    if (INDENTED_CODE.test(lines[i]!)) end = i + 1;
    else if (!isBlank(lines[i]!)) break;
  }
  return end;
}

function heading(lines: string[], level: number, content: string): Block {
  return { kind: "heading", lines, level, title: headingTitle(content) };
}

/** Splits markdown (LF line ends) into blocks, in order. */
export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let paragraphTight = false;
  let blankBefore = true;
  const push = (block: Block, tight: boolean) => {
    if (tight) block.tight = true;
    blocks.push(block);
    blankBefore = false;
  };
  const flush = () => {
    if (paragraph.length) push({ kind: "paragraph", lines: paragraph }, paragraphTight);
    paragraph = [];
  };
  const take = (kind: BlockKind, start: number, end: number) => {
    flush();
    const taken = lines.slice(start, end);
    while (taken.length > 1 && isBlank(taken[taken.length - 1]!)) taken.pop();
    push({ kind, lines: taken }, !blankBefore);
    return end;
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isPlainText(line)) {
      if (!paragraph.length) paragraphTight = !blankBefore;
      paragraph.push(line);
      i++;
      continue;
    }
    const mark = markOf(line);
    if (!isPrintable(mark) && isBlank(line)) {
      flush();
      blankBefore = true;
      i++;
      continue;
    }
    const marker = mayOpenFence(line) && indentOf(line) < 4 ? fenceOpening(line) : undefined;
    if (marker) {
      i = take("code", i, endOfFence(lines, i, marker));
      continue;
    }
    const atx = mark === 0x23 ? ATX.exec(line) : null;
    if (atx) {
      flush();
      push(heading([line], atx[1]!.length, atx[2]!), !blankBefore);
      i++;
      continue;
    }
    const setext = paragraph.length && (mark === 0x3d || mark === 0x2d) ? SETEXT.exec(line) : null;
    if (setext) {
      push(heading([...paragraph, line], setext[1]![0] === "=" ? 1 : 2, paragraph.join(" ")), paragraphTight);
      paragraph = [];
      i++;
      continue;
    }
    if (mayBeBreak(mark) && THEMATIC_BREAK.test(line)) i = take("paragraph", i, i + 1);
    else if (mark === 0x7c) {
      let end = i + 1;
      while (end < lines.length && markOf(lines[end]!) === 0x7c) end++;
      i = take("table", i, end);
    } else if (mayBeListItem(mark) && opensListItem(line, paragraph.length > 0)) {
      i = take("list", i, endOfListItem(lines, i));
    } else if (!paragraph.length && INDENTED_CODE.test(line))
      i = take("code", i, endOfIndentedCode(lines, i));
    else {
      if (!paragraph.length) paragraphTight = !blankBefore;
      paragraph.push(line);
      i++;
    }
  }
  flush();
  return blocks;
}
