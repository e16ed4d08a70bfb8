import { strikethrough, tables, taskListItems } from "@joplin/turndown-plugin-gfm";
import type TurndownService from "turndown";
import MirrorTurndown from "turndown/lib/turndown.browser.es.js";
import { emojiOf } from "./emoji.ts";
import { addCodeRules, linkedCodeText, linksCode } from "./markdown-code.ts";
import { markdownEscaper, unescapeLiteralMarks } from "./markdown-escape.ts";
import { addListRules, insideListItem } from "./markdown-lists.ts";
import { addTableRules } from "./markdown-tables.ts";
import { tidyMarkdown } from "./markdown-tidy.ts";
import type { AnyNode } from "./nodes.ts";
import type { Notations } from "./notation.ts";
import { leadsToPage } from "./self-links.ts";
import { takeTextRead } from "./turndown-dom.ts";
import { EMPHASIS, turndownInput } from "./turndown-input.ts";
import { indexRules } from "./turndown-rules.ts";
import { collapsedView, collapseWhitespace } from "./turndown-whitespace.ts";

/**
 * `text` in bold or italics, unless it has emphasis of its own: wrapping "*class* Station" or
 * "**Figure 1.** Tides" again would break both (and the asterisks cannot simply be stripped);
 * nor when it holds paragraphs, which marks do not reach across.
 */
function emphasized(text: string, mark: "*" | "**"): string {
  return /(?<!\\)\*|\n[ \t]*\n/.test(text) ? text : `${mark}${text}${mark}`;
}

const SPACE = /\s/;

/**
 * `content` split into its body and the whitespace at either edge that holds a line break (a
 * `<br>` first or last in the element, or a block's blank line); edges of spaces alone stay in
 * the body, where turndown's own handling of flanking whitespace has left them. Scans the edges
 * only (a regex anchored at the end would retry from every space of a long run).
 */
function breakEdges(content: string): [string, string, string] {
  let start = 0;
  while (start < content.length && SPACE.test(content[start]!)) start++;
  let end = content.length;
  while (end > start && SPACE.test(content[end - 1]!)) end--;
  const lead = content.lastIndexOf("\n", start - 1) >= 0 ? content.slice(0, start) : "";
  const trail = content.indexOf("\n", end) >= 0 ? content.slice(end) : "";
  return [lead, content.slice(lead.length, content.length - trail.length), trail];
}

/** The emphasis an element writes (bold, italics), if any: the mirror's and a parsed DOM's nodes alike. */
const emphasisOf = (node: Node | null): string | undefined =>
  EMPHASIS[(node as Element | null)?.localName ?? ""];

/**
 * Bold or italics in markdown marks, as the page shows them:
 * - a line break first or last in the element goes outside the marks ("**text\n**" would not
 *   close, "*\ntext*" would not open), and an element of only whitespace leaves its break;
 * - emphasis inside the same emphasis adds no marks ("****30%****" reads as nothing);
 * - emphasis around blocks (paragraphs, a heading, a list, code) adds no marks: they would not
 *   reach from one to the next, and on a fence or a "#" they would unmake the block.
 * Two elements of one emphasis side by side were made one by the mirror (turndown-input.ts).
 */
function delimited(content: string, node: Node, mark: string): string {
  const [lead, body, trail] = breakEdges(content);
  if (!body.trim()) return lead || trail ? `${lead}${trail}` : "";
  // A block's edges are a blank line ("\n\n"); a <br>'s are "  \n".
  if (lead.includes("\n\n") || trail.includes("\n\n") || /\n[ \t]*\n/.test(body)) return content;
  const kind = emphasisOf(node);
  for (let up = node.parentNode; up; up = up.parentNode) if (emphasisOf(up) === kind) return content;
  // turndown puts the element's edge spaces outside what this returns (its flankingWhitespace).
  const spaces = (node as { flankingWhitespace?: { leading: string; trailing: string } }).flankingWhitespace;
  const before = lead || spaces?.leading ? "" : charBeside(node, -1);
  const after = trail || spaces?.trailing ? "" : charBeside(node, 1);
  if (!flanks(before, body, after)) return content;
  return `${lead}${mark}${body}${mark}${trail}`;
}

/** Punctuation and symbols as CommonMark counts them for emphasis (what `\p{P}` and `\p{S}` hold). */
const PUNCTUATION = /[\p{P}\p{S}]/u;

/**
 * Whether asterisks around `body` open and close in CommonMark, given the characters `before` and
 * `after` them ("" at a line's edge or where unknown). A mark between a letter and punctuation
 * does neither: `foo**"bar"**baz`, `**Note:**text` and `word**.**` print their asterisks. Such
 * emphasis is written without marks: the text as the page has it, less its weight.
 */
function flanks(before: string, body: string, after: string): boolean {
  const edge = (c: string) => c === "" || SPACE.test(c) || PUNCTUATION.test(c);
  const opens = !PUNCTUATION.test(body[0] ?? "") || edge(before);
  const closes = !PUNCTUATION.test(body[body.length - 1] ?? "") || edge(after);
  return opens && closes;
}

/** Elements that write no markdown of their own, through which a neighbouring character is looked for. */
const PLAIN_INLINE = new Set([
  "span",
  "font",
  "small",
  "big",
  "abbr",
  "time",
  "u",
  "ins",
  "mark",
  "cite",
  "q",
]);

/**
 * The character just before (`side` -1) or after (1) `node` in its line, as far as its siblings
 * tell: "" at a block's edge, beside an element that writes markdown of its own (a link's "["),
 * or beside an element without text (a picture), where the marks are left as they are.
 */
function charBeside(node: Node, side: -1 | 1): string {
  for (let at: Node = node; ; ) {
    const sibling = side < 0 ? at.previousSibling : at.nextSibling;
    if (sibling) {
      if (sibling.nodeType === 1 && !PLAIN_INLINE.has((sibling as Element).localName)) return "";
      const text = sibling.textContent ?? "";
      return side < 0 ? text.slice(-1) : text.slice(0, 1);
    }
    const parent = at.parentNode as Element | null;
    if (parent?.nodeType !== 1 || !PLAIN_INLINE.has(parent.localName)) return "";
    at = parent;
  }
}

/**
 * A URL as a markdown link's destination: whitespace percent-encoded, and
 * parentheses too unless they pair up (`Foo_(bar)` stays as written), since
 * an unpaired ")" ends the link early ("[x](https://e.com/x)y)" links to
 * ".../x"). encodeURIComponent leaves parentheses as they are.
 */
function linkDestination(url: string): string {
  const spaced = url.replace(/\s/g, encodeURIComponent);
  let depth = 0;
  for (const c of spaced) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) break;
  }
  return depth === 0 ? spaced : spaced.replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29"));
}

/** Text compared loosely: lower case, whitespace one space, markdown's escapes gone. */
const loose = (text: string): string =>
  text.replace(/\\(.)/g, "$1").replace(/\s+/g, " ").trim().toLowerCase();

/**
 * A link's title worth writing: not one that says its text again, alone or with a few words of
 * its own ("Permalink to <headline>", a name on the same name), which a reader never sees beside
 * the text and a model reads twice. A title that adds more ("Opens the annual report (PDF, 2
 * MB)") stays.
 */
function linkTitle(title: string | null, text: string): string | null {
  if (!title?.trim()) return null;
  const t = loose(title);
  const x = loose(text);
  if (!x) return title;
  if (x.includes(t)) return null;
  const at = t.indexOf(x);
  if (at < 0) return title;
  const rest = `${t.slice(0, at)} ${t.slice(at + x.length)}`.trim();
  return rest.split(" ").length <= TITLE_REPEAT_WORDS ? null : title;
}

/** Words a title may add to its link's text and still only repeat it ("Permanent link:", "Permalink to"). */
const TITLE_REPEAT_WORDS = 3;

/** Text bold from end to end, with no other bold inside: `**Heading**`. */
const WHOLLY_BOLD = /^\*\*(?!\*)((?:(?!\*\*)[\s\S])+?)\*\*$/;

/** The mark that opens a markdown heading line. */
const HEADING_PREFIX = /^#{1,6} /;

/**
 * A link around blocks (a card: image, headline, summary) cannot be one
 * markdown link; the headline (or first line of text) carries it instead.
 */
function linkBlock(content: string, target: string): string {
  const lines = content.split("\n");
  const i = lines.findIndex((line) => /[\p{L}\p{N}]/u.test(line.replace(/!\[[^\]]*\]\([^)]*\)/g, "")));
  if (i < 0) return content;
  const match = /^(\s*(?:#{1,6} |> |- |\d+\. )?)(.*?)\s*$/.exec(lines[i]!)!;
  lines[i] = `${match[1]}[${match[2]}]${target}`;
  return lines.join("\n");
}

/** A quotation mark a page may write itself around an inline quotation. */
const QUOTE_MARK = /["'\u2018-\u201f\u00ab\u00bb\u2039\u203a\u300c-\u300f]/;

/** Blocks that may be drawn as a line of one repeated character. */
const TEXT_RULE_TAGS = new Set(["P", "DIV", "H1", "H2", "H3", "H4", "H5", "H6", "CENTER"]);
/** Three or more of one line-drawing character, spaces between allowed, and nothing else. */
const TEXT_RULE = /^\s*([_=*~\-\u2013\u2014\u2015\u2500\u2501\u2550\u00b7\u2022])(?:\s*\1){2,}\s*$/;

let service: TurndownService | null = null;
let mirrorService: TurndownService | null = null;

const TURNDOWN_OPTIONS: TurndownService.Options = {
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "*",
  strongDelimiter: "**",
  // A blank block is a paragraph break, as turndown has it, except a blank list item: no item at all.
  blankReplacement: (_content, node) =>
    node.nodeName === "LI" ? "" : (node as { isBlock?: boolean }).isBlock ? "\n\n" : "",
};

/**
 * The configured turndown service for HTML text, built on first use: turndown
 * compiles its rules once per service. It is turndown's Node build, which parses
 * text with domino; loading domino is a good part of a fetch's start-up, so it is
 * required only here. Exported for the parity test of the DOM mirror against
 * turndown's own HTML parsing.
 */
export function markdownService(): TurndownService {
  if (!service) {
    const NodeTurndown = require("turndown") as typeof import("turndown");
    service = configure(new NodeTurndown(TURNDOWN_OPTIONS));
  }
  return service;
}

/**
 * The same service for the DOM mirror: turndown's browser build, the same converter
 * without domino (it would parse text with the browser's DOM, which is not there, so
 * it is only given nodes).
 */
function mirrorMarkdownService(): TurndownService {
  mirrorService ??= configure(new MirrorTurndown(TURNDOWN_OPTIONS));
  return mirrorService;
}

/** Whether a link leads to the page being converted: set for the length of one toMarkdown call (turndown is synchronous). */
let leadsHere = leadsToPage(undefined);

/** `td` with siphon's rules: GFM tables and lists, code blocks, links, images, math, footnotes. */
function configure(td: TurndownService): TurndownService {
  td.use([tables, strikethrough, taskListItems]);
  addTableRules(td);
  addCodeRules(td);
  // A link with no text (an icon, a wrapper emptied by cleaning) is noise to a reader and to a model.
  td.addRule("link", {
    filter: "a",
    replacement: (content, node) => {
      const trimmed = content.trim();
      if (!trimmed) return "";
      // A link that is all of an inline code carries the code (markdown-code.ts).
      const code = linksCode(node);
      const text = code ? linkedCodeText(node) : trimmed;
      const href = (node as HTMLElement).getAttribute("href")?.trim() ?? "";
      // A link that leads nowhere new (a place on this page, the page itself) is its text.
      if (!href || href.startsWith("#") || leadsHere(href) || /^(?:javascript|data):/i.test(href))
        return code ? text : content;
      const title = linkTitle((node as HTMLElement).getAttribute("title"), text);
      const suffix = title ? ` "${title.replace(/"/g, '\\"')}"` : "";
      const target = `(${linkDestination(href)}${suffix})`;
      // Around blocks (a card), or around a heading, the link goes on the text, inside the block's marks.
      if (text.includes("\n") || HEADING_PREFIX.test(text)) return linkBlock(content, target);
      // A line break first or last in the link stays beside it, where the page shows it.
      const [lead, , trail] = breakEdges(content);
      return `${lead}[${text}]${target}${trail}`;
    },
  });
  td.addRule("strong", {
    filter: ["strong", "b"],
    replacement: (content, node) => delimited(content, node, "**"),
  });
  td.addRule("emphasis", {
    filter: ["em", "i"],
    replacement: (content, node) => delimited(content, node, "*"),
  });
  // An ATX heading is one line: its line breaks are spaces, and a heading with no text is none.
  td.addRule("heading", {
    filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
    replacement: (content, node) => {
      const text = content
        .trim()
        .replace(/[ \t]*\n[\s]*/g, " ")
        // A heading set in bold as a whole is a heading: its marks add nothing to it.
        .replace(WHOLLY_BOLD, "$1");
      return text ? `\n\n${"#".repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n` : "\n\n";
    },
  });
  addListRules(td);
  // Definition lists as pandoc and Markdown Extra write them: the term, then ": definition".
  td.addRule("definitionTerm", {
    filter: "dt",
    replacement: (content) => {
      const text = content.trim();
      return text ? `\n\n${emphasized(text, "**")}\n` : "";
    },
  });
  td.addRule("definition", {
    filter: "dd",
    replacement: (content) => {
      const text = content.trim();
      return text ? `: ${text.replace(/\n/g, "\n  ")}\n` : "";
    },
  });
  // A figure's caption in italics under its image, as markdown writers set one.
  td.addRule("figcaption", {
    filter: "figcaption",
    replacement: (content) => {
      const text = content.trim();
      if (!text) return "";
      return text.includes("\n") ? `\n\n${text}\n\n` : `\n\n${emphasized(text, "*")}\n\n`;
    },
  });
  // An inline quotation in the marks a browser draws around it (single ones when nested), unless
  // the page wrote its own marks in or around it.
  td.addRule("inlineQuote", {
    filter: "q",
    replacement: (content, node) => {
      if (
        !content.trim() ||
        QUOTE_MARK.test(content.trimStart()[0] ?? "") ||
        QUOTE_MARK.test(charBeside(node, -1))
      )
        return content;
      let nested = false;
      for (let up = node.parentNode; up && !nested; up = up.parentNode) nested = up.nodeName === "Q";
      return nested ? `\u2018${content}\u2019` : `\u201c${content}\u201d`;
    },
  });
  td.addRule("image", {
    filter: "img",
    replacement: (_content, node) => {
      const src = (node as HTMLElement).getAttribute("src")?.trim() ?? "";
      if (!src || src.startsWith("data:")) return "";
      const alt = ((node as HTMLElement).getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
      const emoji = emojiOf(alt);
      if (emoji) return emoji;
      return `![${alt.replace(/[[\]]/g, "")}](${linkDestination(src)})`;
    },
  });
  // A paragraph or heading drawn as a line of one character ("_____", "* * *", "———") is a
  // separator: written as a rule, not as escaped characters.
  td.addRule("textRule", {
    // A few children at most: a wrapper's whole text is never measured for it.
    filter: (node) =>
      TEXT_RULE_TAGS.has(node.nodeName) &&
      node.childNodes.length <= 3 &&
      TEXT_RULE.test(node.textContent ?? ""),
    replacement: (_content, node) => (insideListItem(node) ? "" : "\n\n* * *\n\n"),
  });
  // Added last, so that they win over the rules above (turndown tries the latest first).
  // Math as its TeX source, inline or on its own lines (see notation.ts).
  td.addRule("math", {
    filter: (node) => node.nodeName === "X-MATH",
    replacement: (_content, node) => {
      const el = node as HTMLElement;
      const tex = el.getAttribute("data-tex") ?? "";
      if (!tex) return "";
      return el.getAttribute("data-display") === "block" ? `\n\n$$\n${tex}\n$$\n\n` : `$${tex}$`;
    },
  });
  // Footnotes as GFM footnotes: `[^1]` in the text, `[^1]: ...` where the note is.
  td.addRule("footnoteReference", {
    filter: (node) => node.nodeName === "X-FNREF",
    replacement: (_content, node) => `[^${(node as HTMLElement).getAttribute("data-label")}]`,
  });
  td.addRule("footnote", {
    filter: (node) => (node as HTMLElement).getAttribute?.("data-footnote") != null,
    replacement: (content, node) => {
      const label = (node as HTMLElement).getAttribute("data-footnote");
      const body = content.trim().replace(/\n/g, "\n    ");
      return `\n[^${label}]: ${body}\n${node.nodeName === "LI" ? "" : "\n"}`;
    },
  });
  td.escape = markdownEscaper(td.escape.bind(td));
  indexRules(td);
  return td;
}

/**
 * Converts content roots (cleaned htmlparser2 nodes) to GitHub-flavoured
 * markdown: ATX headings, fenced code blocks carrying their language, GFM
 * tables, lists, links and images; empty links dropped and blank lines
 * collapsed. turndown reads the tree through a DOM mirror rather than
 * parsing serialised HTML again, unless the markup is one an HTML5 parser
 * would rearrange (see turndown-input.ts).
 */
export function toMarkdown(roots: readonly AnyNode[], notations?: Notations, pageUrl?: string): string {
  const input = turndownInput(roots, notations);
  takeTextRead(); // no node of an earlier conversion is taken for this one's text
  leadsHere = leadsToPage(pageUrl);
  try {
    let markdown: string;
    if (typeof input === "string") markdown = markdownService().turndown(input);
    else {
      collapseWhitespace(input);
      markdown = mirrorMarkdownService().turndown(collapsedView(input) as HTMLElement);
    }
    return unescapeLiteralMarks(tidyMarkdown(markdown));
  } finally {
    leadsHere = leadsToPage(undefined);
  }
}
