/**
 * Pages cut into passages: the unit BM25 ranks, a prompt quotes and ask answers with. A passage
 * is a paragraph (a list or a table counts as one) with the heading it sits under; paragraphs
 * too short to stand alone join the next one under the same heading, and long ones are cut at
 * sentence ends. Markdown is reduced to its words (links keep their text, images and markup go).
 */

/** A passage of one source. */
export interface Passage {
  /** Which source (page) it comes from: the caller's index. */
  source: number;
  /** Its place in the page, from 0. */
  position: number;
  /** The nearest heading above it, "" when none (text above the first heading). */
  heading: string;
  text: string;
}

/** Below this many words a paragraph joins the next (a caption, "Read more", a date line). */
export const MIN_PASSAGE_WORDS = 12;
/** Above this many words a paragraph is cut at a sentence end. */
export const MAX_PASSAGE_WORDS = 160;

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Markdown to plain words: links keep their text, images, emphasis, code marks and HTML go. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/^\s{0,3}(?:[-*+]|\d+[.)])\s+/gm, "")
    .replace(/^\s*>\s?/gm, "")
    .replace(/^\s*\|?[\s:|-]+\|[\s:|-]*$/gm, "")
    .replace(/\|/g, " ")
    .replace(/(\*\*|__|~~|`+)/g, "")
    .replace(/(^|\s)[*_](\S)/g, "$1$2")
    .replace(/(\S)[*_](?=\s|$|[.,;:!?])/g, "$1")
    .replace(/[ \t]+/g, " ")
    .trim();
}

/** Sentence ends, in Latin and CJK punctuation. */
const SENTENCE_END = /(?<=[.!?。！？])\s+|(?<=[。！？])/;

/** Cuts a long text into pieces of at most `max` words at sentence ends (a sentence never splits). */
function cut(text: string, max: number): string[] {
  if (words(text) <= max) return [text];
  const pieces: string[] = [];
  let current = "";
  for (const sentence of text.split(SENTENCE_END)) {
    if (!sentence.trim()) continue;
    const joined = current ? `${current} ${sentence}` : sentence;
    if (current && words(joined) > max) {
      pieces.push(current);
      current = sentence;
    } else current = joined;
  }
  if (current) pieces.push(current);
  return pieces;
}

interface Block {
  heading: string;
  text: string;
}

/** Markdown to blocks: paragraphs, lists and tables, each with the heading it sits under. */
function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  let heading = "";
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    const text = plainText(lines.join("\n")).replace(/\s*\n\s*/g, " ");
    if (text) out.push({ heading, text });
    lines = [];
  };
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) {
      const title = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      if (title) {
        flush();
        heading = plainText(title[1] ?? "");
        continue;
      }
      // A setext underline makes the line before it a heading.
      if (/^\s*(=+|-+)\s*$/.test(line) && lines.length === 1) {
        heading = plainText(lines[0] ?? "");
        lines = [];
        continue;
      }
      if (!line.trim()) {
        // A list or a table stays one block across its own line breaks, not across blank lines.
        flush();
        continue;
      }
    }
    lines.push(line);
  }
  flush();
  return out;
}

/** Splits one page's markdown into passages; `source` tags every passage with the page it came from. */
export function splitPassages(markdown: string, source: number): Passage[] {
  const passages: Passage[] = [];
  let pending: Block | null = null;
  const emit = (block: Block) => {
    for (const text of cut(block.text, MAX_PASSAGE_WORDS)) {
      passages.push({ source, position: passages.length, heading: block.heading, text });
    }
  };
  // A short block that cannot join the next one (a new heading follows, or the page ends) joins
  // the passage before it under the same heading, else stands alone.
  const settle = (block: Block) => {
    const last = passages.at(-1);
    if (last && last.heading === block.heading && words(last.text) + words(block.text) <= MAX_PASSAGE_WORDS) {
      last.text = `${last.text} ${block.text}`;
    } else emit(block);
  };
  for (const block of blocks(markdown)) {
    if (pending && pending.heading === block.heading) {
      pending = { heading: block.heading, text: `${pending.text} ${block.text}` };
    } else {
      if (pending) settle(pending);
      pending = block;
    }
    if (words(pending.text) >= MIN_PASSAGE_WORDS) {
      emit(pending);
      pending = null;
    }
  }
  if (pending) settle(pending);
  return passages;
}
