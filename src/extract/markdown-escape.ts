import { fencedRanges } from "./markdown-tidy.ts";
import { MdElement, type MdNode, MdText, takeTextRead } from "./turndown-dom.ts";

/** Text escaping could change: a character turndown escapes anywhere or at the start, or an angle bracket. */
const MAY_NEED_ESCAPE = /[\\*`[\]_<]|^[-+=#~>\d]/;

/** What markdown reads anywhere in a line: turndown's escapes less those of a line's start. */
const INLINE_SYNTAX = /[\\*`[\]_]/g;

/**
 * A "<" that markdown could read as the start of raw HTML or an autolink ("<commit>", "</em>",
 * "<!--"): text on the page, so escaped ("\\<commit>"), or a renderer would swallow it as a tag.
 * A "<" ending a text node too: the next node may go on with a tag name ("&lt;<span>div</span>").
 */
const TAG_START = /<(?=[A-Za-z/!?]|$)/g;

/**
 * An underscore escaped between two letters or digits ("snake\\_case"): CommonMark never reads
 * one there as emphasis, so it is written as it is ("snake_case", "Director_Oh").
 */
const INTRAWORD_UNDERSCORE = /(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu;

/**
 * A line's "-" or "=" run right before other text ("-56%", "--help", "-Mark Twain"): markdown
 * reads a "-" as an item only before a space, and a run as a rule or a heading's underline only
 * when it is the whole line, so turndown's escape ("\\-56%") is not needed.
 */
const MARKS_BEFORE_TEXT = /^[-=]+[^-=\s]/;

/**
 * A line's start that markdown reads as an empty item or heading, or as an item after ")",
 * which turndown leaves (its escapes want a space after "1." and "#", and know no "1)"): a
 * numbered badge's "1." alone, a "1) step", a lone "#" or "+". Escaped ("1\\.", "1\\)", "\\#").
 */
const BARE_LINE_MARK = /^(?:(\d{1,9})([.)])(?=\s|$)|(#{1,6}|\+)$)/;

/** Elements whose markdown stays in the line of the text around them (any other is taken as a block). */
const INLINE_TAGS = new Set(
  "a abbr acronym b bdi bdo big cite code data del dfn em font i img ins kbd mark nobr q s samp small span strike strong sub sup time tt u var wbr".split(
    " ",
  ),
);

/** How far back `followsText` looks before it gives up (and the text is escaped as at a line's start). */
const MOST_STEPS = 64;

/** An element of inline markup only: no block, line break or element of a rule of its own inside. */
function inlineOnly(el: MdElement): boolean {
  if (!INLINE_TAGS.has(el.localName)) return false;
  for (const name of el.descendantNames) if (name === "br" || !INLINE_TAGS.has(name)) return false;
  return true;
}

/**
 * Whether text comes before `node` in its line: text in the same block, with no line break,
 * block or element of unknown markdown between. Unsure (a long run of empty elements), it answers
 * no, and the text is escaped as at a line's start: an escape too many reads the same.
 */
export function followsText(node: MdNode): boolean {
  let steps = 0;
  for (let at: MdNode = node; ; ) {
    if (++steps > MOST_STEPS) return false;
    const prev = at.previousSibling;
    if (prev === null) {
      const parent = at.parentNode;
      if (parent === null || !inlineOnly(parent)) return false;
      at = parent;
      continue;
    }
    if (prev instanceof MdText) {
      if (/\S/.test(prev.data)) return true;
    } else if (prev instanceof MdElement) {
      if (!inlineOnly(prev)) return false;
      if (/\S/.test(prev.textContent)) return true;
    }
    at = prev;
  }
}

/**
 * turndown's escaping, for the text of a node turndown reads through the mirror: the syntax of a
 * line's start ("- ", "1. ", "#", ">", "=") is escaped only where the text starts a line, so a
 * signature's "key=None" or a date's "- February" after a link is written as it reads, not
 * "key\\=None". Text read another way (markup turndown parsed itself) is escaped as turndown does.
 * turndown runs 13 regular expressions over every text node to escape it; most text needs none.
 */
export function markdownEscaper(escapeAll: (text: string) => string): (text: string) => string {
  return (text) => {
    const node = takeTextRead();
    if (!MAY_NEED_ESCAPE.test(text)) return text;
    const inLine = node !== null && node.data === text && followsText(node);
    let escaped = inLine ? text.replace(INLINE_SYNTAX, "\\$&") : escapeAll(text);
    // turndown's escape of a leading "-" or "=" run is its first character.
    if (!inLine && MARKS_BEFORE_TEXT.test(text)) escaped = escaped.slice(1);
    if (!inLine)
      escaped = escaped.replace(BARE_LINE_MARK, (_, digits, mark, bare) =>
        bare ? `\\${bare}` : `${digits}\\${mark}`,
      );
    return escaped.replace(INTRAWORD_UNDERSCORE, "_").replace(TAG_START, "\\<");
  };
}

/**
 * The escapes of a line's start ("1\\.", "1\\)", "\\-", "\\+", "\\>") at the start of a table
 * cell's lines: a cell's text is inline, one line of its row, where "1. First" is no list
 * ("| 19. Rome |"). An ATX heading's text keeps them, though it is inline too: tools that strip
 * markdown to text line by line (the benchmarks' scorers among them) read "### 1. Title" as a
 * heading holding a list item and drop its number.
 */
const INLINE_LINE_START = /^(\d{1,9})\\([.)])|^\\([-+>])/gm;

export function unescapeInlineStart(markdown: string): string {
  return markdown.replace(INLINE_LINE_START, (_, digits, mark, sign) => (sign ? sign : `${digits}${mark}`));
}

/**
 * An escaped pair of brackets markdown could not read as a link: text between them without
 * brackets, and after them neither "(" (an inline link), "[" (a reference) nor ":" (a definition).
 * "[4]" of a paper's citations, "[site reliability engineer]" in a quote. Not a task box's "[ ]"
 * or "[x]", which a list item would read as one.
 */
const LITERAL_BRACKETS = /(?<!\\)\\\[((?:[^[\]\\\n]|\\[^[\]\n])*)\\\](?![([:]|\\\[)/g;
const TASK_BOX = /^[ xX]?$/;
/** A line's start that markdown reads as an item before a star ("\\* item"). */
const STAR_ITEM = /(?:^|\n)[ \t]*\\\*[ \t]/;

/**
 * turndown escapes every bracket and star; where markdown could read neither as syntax, the text
 * is written as the page has it ("[1-3]", "Free*", "*See the full list"): a bracket pair that
 * cannot be a link (LITERAL_BRACKETS), and the only star of a paragraph, which has no other to
 * pair with as emphasis (not one starting a line as an item). Fenced code and paragraphs holding
 * code spans are left as they are.
 */
export function unescapeLiteralMarks(markdown: string): string {
  if (!markdown.includes("\\[") && !markdown.includes("\\*")) return markdown;
  const fences = fencedRanges(markdown);
  let out = "";
  let at = 0;
  for (const [start, end] of [...fences, [markdown.length, markdown.length] as [number, number]]) {
    out += markdown.slice(at, start).split("\n\n").map(unescapeParagraph).join("\n\n");
    out += markdown.slice(start, end);
    at = end;
  }
  return out;
}

function unescapeParagraph(text: string): string {
  if (text.includes("`")) return text;
  let out = text.includes("\\[")
    ? text.replace(LITERAL_BRACKETS, (pair, inner: string) => (TASK_BOX.test(inner) ? pair : `[${inner}]`))
    : text;
  const stars = out.split("*").length - 1;
  if (stars === 1 && out.includes("\\*") && !STAR_ITEM.test(out)) out = out.replace("\\*", "*");
  return out;
}
