import type TurndownService from "turndown";

/** Code in markdown: fenced blocks with their language, and inline code as its text. */

const LANGUAGE_CLASS =
  /(?:^|\s)(?:(?:language|lang|highlight-source)-?|brush:\s*|highlight-|sourceCode\s+)([\w+#.-]+)/;

/** What a highlighter's class names when it names no language (Sphinx's "highlight-default"). */
const NO_LANGUAGE = new Set(["default", "none"]);

/**
 * Languages a class may name bare (rustdoc's `<pre class="rust">`) or after a highlighter's prefix
 * (Sandpack's `sp-javascript`, Gatsby's `gatsby-code-jsx`): names a class rarely means otherwise.
 */
const LANGUAGES = new Set(
  (
    "bash c++ clojure cpp csharp css dart diff dockerfile elixir erlang fsharp go golang graphql groovy haskell " +
    "html java javascript js json jsx julia kotlin latex less lua makefile markdown matlab nginx objectivec " +
    "ocaml perl php powershell protobuf python py ruby rust sass scala scss shell sh solidity sql swift tex " +
    "toml ts tsx typescript vb xml yaml yml zig zsh"
  ).split(" "),
);
/** A class token naming a language from LANGUAGES, bare or after one or more prefix words. */
const LANGUAGE_TOKEN = /^(?:[a-z]+-)*([a-z+#]+)$/;

/** The language a class token names by itself (see LANGUAGES), or "". */
function namedLanguage(classes: string): string {
  for (const token of classes.toLowerCase().split(/\s+/)) {
    const name = LANGUAGE_TOKEN.exec(token)?.[1];
    if (name && LANGUAGES.has(name)) return name;
  }
  return "";
}

/** The `<code>` a `<pre>` holds among its children (after a toolbar of buttons, as mdBook draws it). */
function codeChild(pre: HTMLElement): Element | null {
  for (const c of Array.from(pre.children)) if (c.nodeName === "CODE") return c;
  return null;
}

/**
 * Language of a code block from the usual highlighter conventions:
 * `data-lang`/`data-language`, or a class on `<pre>`, its `<code>`, or the
 * wrappers a highlighter puts around it: `language-x`/`lang-x` (Prism,
 * highlight.js, Rouge, Chroma), `highlight-source-x` (GitHub), `highlight-x`
 * (Sphinx's Pygments wrapper), `sourceCode x` (pandoc), `brush:x` or `brush: x;` (SyntaxHighlighter, MDN);
 * else a class of the `<pre>` or its `<code>` naming a known language bare or after a prefix.
 */
function codeLanguage(pre: HTMLElement): string {
  const code = codeChild(pre);
  const own: Element[] = code ? [code, pre] : [pre];
  const candidates = [...own];
  for (let up = pre.parentNode as Element | null, i = 0; up && i < 2 && up.nodeName === "DIV"; i++) {
    candidates.push(up);
    up = up.parentNode as Element | null;
  }
  for (const el of candidates) {
    const data = el.getAttribute("data-lang") ?? el.getAttribute("data-language");
    if (data && /^[\w+#.-]+$/.test(data)) return data.toLowerCase();
    const match = LANGUAGE_CLASS.exec(el.getAttribute("class") ?? "");
    const language = match?.[1]?.toLowerCase();
    if (language && !NO_LANGUAGE.has(language)) return language;
  }
  for (const el of own) {
    const language = namedLanguage(el.getAttribute("class") ?? "");
    if (language) return language;
  }
  return "";
}

/** Elements that hold one line each when a highlighter splits code into lines (CodeMirror's `div.cm-line`, tables of rows). */
const CODE_LINE_TAGS = new Set(["DIV", "P", "LI", "TR", "TABLE", "TBODY", "DD", "DT", "SECTION"]);

/** A span's class naming it one line of code: `line`, or a name ending in `-line` (`gatsby-highlight-code-line`). */
const LINE_SPAN = /(?:^|[\s-])line(?:$|\s)/;

/**
 * The text of a code block with its line breaks: `<br>` and line elements
 * (a highlighter's `<div class="line">`) end lines, where `textContent`
 * would run them together.
 */
function codeText(pre: Node): string {
  let out = "";
  // Recursive: the mirror of a tree from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  const visit = (node: Node): void => {
    if (node.nodeType === 3) {
      out += (node as Text).data;
      return;
    }
    if (node.nodeType !== 1) return;
    const name = node.nodeName;
    if (name === "BR") {
      out += "\n";
      return;
    }
    const line = CODE_LINE_TAGS.has(name);
    // A line's own span (Gatsby's `gatsby-highlight-code-line`, Shiki's `line`) starts a line too;
    // the line break after it, if any, is the code's text.
    const starts = line || (name === "SPAN" && LINE_SPAN.test((node as Element).getAttribute("class") ?? ""));
    if (starts && out && !out.endsWith("\n")) out += "\n";
    for (let c = node.firstChild; c; c = c.nextSibling) visit(c);
    if (line && !out.endsWith("\n")) out += "\n";
  };
  for (let c = pre.firstChild; c; c = c.nextSibling) visit(c);
  return out;
}

function fence(code: string): string {
  let size = 3;
  for (const m of code.matchAll(/^`{3,}/gm)) size = Math.max(size, m[0].length + 1);
  return "`".repeat(size);
}

const NEWLINES = /\r?\n|\r/g;

/**
 * `code` as an inline code span: on one line, backticks around, more of them than any run inside
 * (CommonMark). Its edges are trimmed: turndown writes the whitespace at an inline element's
 * edges outside it.
 */
function codeSpan(code: string): string {
  const text = code.replace(NEWLINES, " ").trim();
  let delimiter = "`";
  const runs: string[] = text.match(/`+/g) ?? [];
  while (runs.includes(delimiter)) delimiter += "`";
  // A backtick at an edge needs a space between it and the delimiters (CommonMark strips one).
  const space = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${delimiter}${space}${text}${space}${delimiter}`;
}

/** Inline code: a `<code>` not alone in a `<pre>` (turndown's own test). */
function isInlineCode(node: Node): boolean {
  if (node.nodeName !== "CODE") return false;
  const alone = !node.previousSibling && !node.nextSibling;
  return !(alone && node.parentNode?.nodeName === "PRE");
}

/** The link that is all of an inline code's content, blank text aside (`<code><a href>String</a></code>`). */
function soleLink(code: Node): Node | null {
  let link: Node | null = null;
  for (let c = code.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3 && !(c as Text).data.trim()) continue;
    if (link || c.nodeName !== "A") return null;
    link = c;
  }
  return link;
}

/**
 * Whether `link` is all of an inline code's content, as API references link a type: the link is
 * written around the code, `[\`String\`](url)`, since markdown reads no link inside a code span.
 */
export function linksCode(link: Node): boolean {
  const code = link.parentNode;
  return code !== null && isInlineCode(code) && soleLink(code) === link;
}

/** The text of `link`, the whole of an inline code, as that code (see `linksCode`). */
export const linkedCodeText = (link: Node): string => codeSpan(link.textContent ?? "");

/** siphon's rules for code: blocks fenced with their language, inline code as its plain text. */
export function addCodeRules(td: TurndownService): void {
  td.addRule("codeBlock", {
    filter: "pre",
    replacement: (_content, node) => {
      const pre = node as HTMLElement;
      // A block inside another is written by the outer one, whole (nested blocks each read all of it).
      for (let up = pre.parentNode; up; up = up.parentNode) if (up.nodeName === "PRE") return "";
      const code = codeText(pre).replace(/^\n+|\s+$/g, "");
      if (!code) return "";
      const f = fence(code);
      return `\n\n${f}${codeLanguage(pre)}\n${code}\n${f}\n\n`;
    },
  });
  // Markdown in a code span is literal: bold, italics or code inside code (`<code><b>return</b>
  // <i>url</i></code>`) would show their asterisks and backticks, so the span holds the text alone.
  td.addRule("inlineCode", {
    filter: isInlineCode,
    replacement: (content, node) => {
      const text = node.textContent ?? "";
      // Nothing to show, or no text (an image): what the content made of itself.
      if (!content || !text.trim()) return content;
      // A link that is all of it wrote the code already (the link rule, linksCode).
      return soleLink(node) ? content.trim() : codeSpan(text);
    },
  });
}
