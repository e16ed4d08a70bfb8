import { type AnyNode, type Element, HEADING_TAGS, isElement } from "./nodes.ts";
import type { Notations } from "./notation.ts";
import { MdElement, type MdNode, MdText, NO_ATTRIBS, normalize, VOID_TAGS, words } from "./turndown-dom.ts";

/**
 * Builds the DOM mirror turndown converts (turndown-dom.ts) from content
 * roots, applying while it builds the cheap differences between the tree
 * htmlparser2 made and the one an HTML5 parser would make from the same
 * markup, and detecting the costly ones (then the caller gets HTML to parse).
 */
/** Start tags that close an open `<p>` (in button scope) in HTML5; htmlparser2 only closes a parent `<p>`. */
const CLOSES_P = new Set(
  words(
    "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main menu nav ol p section summary ul h1 h2 h3 h4 h5 h6 pre listing form li dd dt plaintext hr xmp",
  ),
);

/** HTML5's "special" elements, which stop the search for an `<li>`, `<dd>` or `<dt>` to close. */
const SPECIAL = new Set([
  ...CLOSES_P,
  ...words(
    "applet area base basefont bgsound body br button caption col colgroup embed frame frameset head html iframe img input keygen link marquee meta noembed noframes noscript object param script select source style table tbody td template textarea tfoot th thead title tr track wbr",
  ),
]);

/** Elements that end the scope of formatting elements (HTML5 markers) and of `<p>` (button scope). */
const MARKERS = new Set(["applet", "object", "marquee", "template", "td", "th", "caption"]);
const BUTTON_SCOPE = new Set([...MARKERS, "html", "table", "button"]);

/** Where each table part may sit; anywhere else inside a table, an HTML5 parser moves things. */
const TABLE_PART_PARENT: Record<string, string[]> = {
  caption: ["table"],
  colgroup: ["table"],
  thead: ["table"],
  tbody: ["table"],
  tfoot: ["table"],
  tr: ["table", "tbody", "thead", "tfoot"],
  td: ["tr"],
  th: ["tr"],
  col: ["colgroup"],
};

/** What table elements may hold besides whitespace; anything else is moved out by an HTML5 parser. */
const TABLE_CONTENT: Record<string, Set<string>> = {
  table: new Set(words("caption colgroup thead tbody tfoot tr script style template")),
  thead: new Set(words("tr script style template")),
  tbody: new Set(words("tr script style template")),
  tfoot: new Set(words("tr script style template")),
  tr: new Set(words("td th script style template")),
  colgroup: new Set(words("col template")),
};

/**
 * Elements an HTML5 parser treats in ways the mirror does not follow: foreign
 * content, template contents, select contents, raw text htmlparser2 parses
 * as markup, frames, elements void in only one of the parsers.
 */
const UNFOLLOWED = new Set(
  words("math svg template select iframe noembed noframes plaintext frameset frame command isindex"),
);

const RUBY = new Set(["rb", "rt", "rp", "rtc"]);

/**
 * Whitespace from which a run is cut short. turndown trims the end of its output with a pattern
 * that is retried from every character of a run of whitespace inside it, so a run of n characters
 * costs n² steps (a <pre> of 40,000 spaces took 4 s, a hostile page of them would never finish);
 * with runs cut, a page costs at most this many steps a character. No text or code indents further.
 */
const MAX_SPACE_RUN = 128;
/** A run longer than that, matched from its start only (the lookbehind): the match is linear too. */
const LONG_SPACE_RUN = new RegExp(`(?<!\\s)\\s{${MAX_SPACE_RUN + 1},}`, "g");

function capSpaceRuns(text: string): string {
  return text.length > MAX_SPACE_RUN
    ? text.replace(LONG_SPACE_RUN, (run) => run.slice(0, MAX_SPACE_RUN))
    : text;
}

/** Elements of one emphasis: bold or italics, whichever element writes it (by lower-case name). */
export const EMPHASIS: Record<string, "bold" | "italic" | undefined> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
};

/** Void elements that draw nothing of their own (a `<picture>`'s sources, a media element's tracks). */
const UNSHOWN = new Set(["source", "track"]);

/** Elements whose markdown indents or prefixes every line of their content ("- ", "> ", ": "). */
const INDENTING = new Set(["li", "blockquote", "dd"]);
/**
 * How many of those nest in markdown; deeper ones become plain blocks (their
 * text stays, in order). Real pages nest lists and quotes a few levels
 * (tables of contents 4-6, quoted replies rarely past 5); each level re-indents
 * all it holds, so without a bound 10,000 nested quotes, 150 KB of markup,
 * turn into megabytes of "> " and take seconds per thousand levels.
 */
export const MAX_MARKDOWN_NESTING = 10;
const WHITESPACE = /^[ \t\n\f\r]*$/;

/** What is open around a node, as far as the HTML5 rules the builder checks are concerned. */
enum Open {
  A = 1,
  Nobr = 2,
  /** A `<p>` in button scope. */
  P = 4,
  /** An `<li>` a new `<li>` would close. */
  Li = 8,
  /** A `<dd>` or `<dt>` a new one would close. */
  Dd = 16,
  Form = 32,
  Table = 64,
}

class Builder {
  constructor(readonly notations: Notations) {}

  /** Set when the markup holds something an HTML5 parser would rearrange. */
  rearranged = false;
  /** The node last added, or null after a comment: text right after text joins it, as in a parsed DOM. */
  last: MdNode | null = null;
  /** How many INDENTING elements are open around the node being built. */
  nesting = 0;

  appendText(parent: MdElement, data: string): void {
    if (!data) return;
    const last = this.last;
    if (last instanceof MdText && last.parentNode === parent) last.data += data;
    else this.add(parent, new MdText(data));
  }

  add(parent: MdElement, node: MdNode): void {
    parent.appendChild(node);
    this.last = node;
  }

  /** Appends the mirror of `node` (and its subtree) to `parent`; `open` describes the context. */
  build(parent: MdElement, node: AnyNode, open: number): void {
    if (node.type === "text") {
      if (TABLE_CONTENT[parent.localName] && !WHITESPACE.test(node.data)) this.rearranged = true;
      this.appendText(parent, capSpaceRuns(normalize(node.data, "")));
      return;
    }
    if (!isElement(node)) {
      // turndown drops comments, but text on either side stays apart; a parser ignores a doctype.
      if (!(node.type === "directive" && node.name === "!doctype")) this.last = null;
      return;
    }
    const mark = this.notations.get(node);
    if (mark && mark.kind !== "fndef") {
      // Math and footnote references become elements of their own that siphon's rules render.
      // Each holds its text too: turndown gives an element without text to its blank rule.
      if (mark.kind === "math") {
        const el = new MdElement("x-math", {
          "data-tex": mark.tex,
          "data-display": mark.block ? "block" : "",
        });
        this.add(parent, el);
        el.appendChild(new MdText(mark.tex));
      } else if (mark.kind === "fnref") {
        const el = new MdElement("x-fnref", { "data-label": mark.label });
        this.add(parent, el);
        el.appendChild(new MdText(mark.label));
      } else if (mark.kind === "text") this.add(parent, new MdText(mark.text));
      return;
    }
    let name = node.name;
    // A picture's sources and a video's tracks show nothing themselves; as void elements they would
    // keep the whitespace beside them, which then opens the line of the picture ("   ![...]").
    if (UNSHOWN.has(name)) return;
    const tableParents = TABLE_PART_PARENT[name];
    // An HTML5 parser ignores these tags in a body (outside a table): their content stays.
    if (name === "body" || name === "html" || name === "head" || (tableParents && !(open & Open.Table))) {
      for (const child of node.children) this.build(parent, child, open);
      return;
    }
    if (name === "image") name = "img";
    // Breaks past a long run add nothing a reader sees (markdown reads the run as a blank line).
    if (name === "br" && breaksBefore(parent) >= MAX_BREAK_RUN) return;
    // An editor's second run of an emphasis right after the first ("<b>S</b><b>aving</b>") is one
    // run as it reads: it goes on in the first element, so markdown gets one pair of marks.
    const kind = EMPHASIS[name];
    const prev = this.last;
    if (
      kind &&
      prev instanceof MdElement &&
      prev.parentNode === parent &&
      EMPHASIS[prev.localName] === kind
    ) {
      const inner = this.openWithin(name, open);
      // Its content goes on from the first's last node (an italic run there joins one here too).
      this.last = prev.lastChild;
      for (const child of node.children) this.build(prev, child, inner);
      this.last = prev;
      return;
    }
    const indents = INDENTING.has(name) && this.nesting < MAX_MARKDOWN_NESTING;
    if (!indents && INDENTING.has(name)) name = "div";
    if (this.misplaced(parent, name, open, tableParents)) this.rearranged = true;
    const attribs = node.attribs ?? NO_ATTRIBS;
    const el = new MdElement(name, mark ? { ...attribs, "data-footnote": mark.label } : attribs);
    this.add(parent, el);
    const inner = this.openWithin(name, open);
    // A void element's content follows it (htmlparser2 nests it in `<image>` and `<bgsound>`).
    const target = VOID_TAGS.has(name) ? parent : el;
    if (indents) this.nesting++;
    // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
    if (name === "table") this.buildTable(el, node, inner);
    else for (const child of node.children) this.build(target, child, target === el ? inner : open);
    if (indents) this.nesting--;
    if ((name === "pre" || name === "listing") && /^[\r\n]/.test(leadingText(node.children[0])))
      dropLeadingNewline(el);
    // Its end tag separates what follows from its content (a void element's has none).
    if (target === el) this.last = el;
  }

  /** True when an HTML5 parser would not put element `name` where htmlparser2 did. */
  misplaced(parent: MdElement, name: string, open: number, tableParents: string[] | undefined): boolean {
    const allowed = TABLE_CONTENT[parent.localName];
    if (allowed && !allowed.has(name)) return true;
    if (tableParents) return !tableParents.includes(parent.localName);
    if (UNFOLLOWED.has(name)) return true;
    if (CLOSES_P.has(name) && open & Open.P) return true;
    if (name === "a") return (open & Open.A) !== 0;
    if (name === "nobr") return (open & Open.Nobr) !== 0;
    if (name === "li") return (open & Open.Li) !== 0;
    if (name === "dd" || name === "dt") return (open & Open.Dd) !== 0;
    if (name === "form") return (open & Open.Form) !== 0;
    if (HEADING_TAGS.has(name)) return HEADING_TAGS.has(parent.localName);
    return RUBY.has(name) && RUBY.has(parent.localName);
  }

  /** The context for the children of element `name`. */
  openWithin(name: string, open: number): number {
    if (MARKERS.has(name)) open &= ~(Open.A | Open.Nobr);
    if (BUTTON_SCOPE.has(name)) open &= ~Open.P;
    if (SPECIAL.has(name) && name !== "address" && name !== "div" && name !== "p")
      open &= ~(Open.Li | Open.Dd);
    if (name === "a") open |= Open.A;
    else if (name === "nobr") open |= Open.Nobr;
    else if (name === "p") open |= Open.P;
    else if (name === "li") open |= Open.Li;
    else if (name === "dd" || name === "dt") open |= Open.Dd;
    else if (name === "form") open |= Open.Form;
    else if (name === "table") open |= Open.Table;
    return open;
  }

  /** Rows directly in a table go into an implied `<tbody>`, as an HTML5 parser puts them. */
  buildTable(table: MdElement, node: Element, open: number): void {
    let body: MdElement | null = null;
    for (const child of node.children) {
      if (isElement(child) && child.name === "tr") {
        if (!body) {
          body = new MdElement("tbody", NO_ATTRIBS);
          this.add(table, body);
        }
        this.build(body, child, open);
      } else if (body && child.type === "text" && WHITESPACE.test(child.data)) {
        this.build(body, child, open);
      } else {
        body = null;
        this.build(table, child, open);
      }
    }
  }
}

/**
 * Line breaks in a row (blank text between them aside) the mirror keeps. turndown trims the end of
 * its output with a pattern retried from every character of each whitespace run inside it, and
 * every break writes "  \n": 20,000 breaks in a row took 10 s. No page breaks lines this often.
 */
const MAX_BREAK_RUN = 64;

/** How many line breaks end `parent`'s content so far, blank text between them aside (at most MAX_BREAK_RUN). */
function breaksBefore(parent: MdElement): number {
  let n = 0;
  for (let c = parent.lastChild; c && n < MAX_BREAK_RUN; c = c.previousSibling) {
    if (c instanceof MdElement && c.localName === "br") n++;
    else if (!(c instanceof MdText && WHITESPACE.test(c.data))) break;
  }
  return n;
}

const NO_NOTATIONS: Notations = new Map();

/** A text node's data, or "" for anything else. */
const leadingText = (node: AnyNode | undefined): string => (node?.type === "text" ? node.data : "");

/** An HTML5 parser drops a newline right after `<pre>` (the mirror's first child holds it). */
function dropLeadingNewline(pre: MdElement): void {
  const first = pre.firstChild as MdText;
  if (first.data.length === 1) pre.removeChild(first);
  else first.data = first.data.slice(1);
}

/**
 * What turndown converts for these content roots: the DOM mirror (a wrapper
 * holding the roots, separated by newlines as their serialisations were
 * joined), or, when an HTML5 parser would rearrange the markup, its HTML.
 */
export type TurndownInput = MdElement | string;

export function turndownInput(roots: readonly AnyNode[], notations: Notations = NO_NOTATIONS): TurndownInput {
  const root = new MdElement("x-turndown", NO_ATTRIBS);
  const builder = new Builder(notations);
  roots.forEach((node, i) => {
    if (i) builder.appendText(root, "\n");
    builder.build(root, node, 0);
  });
  return builder.rearranged ? root.innerHTML : root;
}
