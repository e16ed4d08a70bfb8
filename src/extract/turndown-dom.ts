import { BREAK_MARKS, withoutBreakMarks } from "./nodes.ts";

/**
 * A minimal DOM over the cleaned htmlparser2 (domhandler) tree, for turndown.
 *
 * turndown converts a DOM node as readily as an HTML string, and a node
 * spares serialising the tree (dom-serializer) only for turndown to parse it
 * again (domino): a quarter of extraction time. The mirror is built in one
 * pass and implements only what turndown, the gfm plugin and siphon's rules
 * read. It serves one conversion: its whitespace is collapsed in place, as
 * turndown would collapse it, before turndown reads it (turndown-whitespace.ts).
 *
 * Markdown must not change with the switch, so the mirror shows turndown the
 * tree an HTML5 parser builds from the serialised markup, which is not always
 * the tree htmlparser2 built. The cheap differences are applied while
 * building (turndown-input.ts): `<html>`, `<head>`, `<body>` tags and table parts outside a
 * table dissolve, rows directly in a table get a `<tbody>`, `<image>` is `<img>`,
 * void elements hold no children, the newline opening a `<pre>` goes, and
 * text is normalised as the round trip through entities would (CR LF, NUL,
 * C1 controls, lone surrogates). Markup an HTML5 parser would rearrange
 * (links in links, blocks in a paragraph through inline wrappers, misplaced
 * table content, nested forms...) is only detected: the caller then hands
 * turndown the mirror's HTML to parse, as before (see `TurndownInput`).
 */

export const words = (list: string): string[] => list.split(" ");

/** Attributes the markdown rules may read; the others stay hidden (see `attributeVisible`). */
const VISIBLE_ATTRS = new Set(
  words(
    "href src alt title colspan rowspan align start value reversed data-lang data-language checked data-tex data-display data-label data-footnote",
  ),
);

/**
 * Attributes turndown sees. The rest stay hidden, as they always have: some
 * would switch on behaviour siphon never had (`role="checkbox"` makes a task
 * item); the class of code blocks names their language, a list's `start`
 * its first number (a list the page continues after a figure starts at 4)
 * and `reversed` its counting down.
 */
export function attributeVisible(tag: string, name: string): boolean {
  if (VISIBLE_ATTRS.has(name)) return true;
  if (name === "class") return tag === "pre" || tag === "code" || tag === "div" || tag === "span";
  return name === "type" && tag === "input";
}

/** Elements without content or end tag in HTML5 (domino's list). */
export const VOID_TAGS = new Set(
  words("area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr"),
);

/** Elements whose text is serialised unescaped. */
const RAW_TEXT_TAGS = new Set(words("style script xmp iframe noembed noframes plaintext noscript"));

const escapeText = (s: string): string =>
  s.replace(/[&<>\u00a0]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&nbsp;",
  );
const escapeAttr = (s: string): string => escapeText(s).replace(/"/g, "&quot;");

/** Text normalize could change, tested once before its replacements run. */
const MAY_NORMALIZE = new RegExp(`[\\r\\0\\x80-\\x9f${BREAK_MARKS}]`);

/** Windows-1252 characters that HTML5 reads for numeric references to C1 controls (`&#x80;` is €). */
const C1 = "€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ";

/**
 * Text as it comes back from serialising with entities and parsing as HTML5:
 * CR LF and CR are LF, NUL is dropped from text (U+FFFD in attributes), C1
 * controls are their Windows-1252 characters, lone surrogates are U+FFFD.
 * The characters that only mark where a line may break go (nodes.ts BREAK_MARKS).
 */
export function normalize(s: string, nul: string): string {
  if (MAY_NORMALIZE.test(s))
    s = withoutBreakMarks(
      s
        .replace(/\r\n?/g, "\n")
        .replace(/\0/g, nul)
        .replace(/[\x80-\x9f]/g, (c) => C1[c.charCodeAt(0) - 0x80]!),
    );
  return s.isWellFormed() ? s : s.toWellFormed();
}

/** Tag names in the other ASCII case, cached: few names, many nodes (cleared if a page invents thousands). */
function caseCache(convert: (name: string) => string): (name: string) => string {
  const cache = new Map<string, string>();
  return (name) => {
    let converted = cache.get(name);
    if (converted === undefined) {
      if (cache.size > 1000) cache.clear();
      converted = convert(name);
      cache.set(name, converted);
    }
    return converted;
  };
}

/** DOM tag names are the ASCII upper case of HTML element names. */
const upperName = caseCache((name) => name.replace(/[a-z]+/g, (s) => s.toUpperCase()));
const lowerName = caseCache((name) => name.replace(/[A-Z]+/g, (s) => s.toLowerCase()));

export const NO_ATTRIBS: Record<string, string> = {};

/** The text node whose value turndown read last (it reads a value only to escape or to copy it). */
let textRead: MdText | null = null;

/**
 * The text node turndown read last, once: its escape is handed only the string, and where that
 * text sits decides what needs escaping (markdown-escape.ts). Null after it was taken.
 */
export function takeTextRead(): MdText | null {
  const node = textRead;
  textRead = null;
  return node;
}
const NO_STYLE = { textAlign: "" };

export abstract class MdNode {
  parentNode: MdElement | null = null;
  previousSibling: MdNode | null = null;
  nextSibling: MdNode | null = null;
  // Set by turndown on each node it converts; declared so that every node keeps one shape.
  isBlock = false;
  isCode = false;
  isBlank = false;
  flankingWhitespace: unknown = null;
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  abstract readonly textContent: string;
  abstract serialize(reparse: boolean): string;
}

export class MdText extends MdNode {
  readonly nodeType = 3;
  readonly nodeName = "#text";
  #data: string;

  constructor(data: string) {
    super();
    this.#data = data;
  }

  get data(): string {
    return this.#data;
  }

  set data(value: string) {
    this.#data = value;
    this.parentNode?.changed();
  }

  get nodeValue(): string {
    textRead = this;
    return this.#data;
  }

  get textContent(): string {
    return this.#data;
  }

  serialize(): string {
    const parent = this.parentNode;
    return parent && RAW_TEXT_TAGS.has(parent.localName) ? this.#data : escapeText(this.#data);
  }
}

export class MdElement extends MdNode {
  readonly nodeType = 1;
  readonly nodeName: string;
  /** Element name as htmlparser2 gives it (lower case). */
  readonly localName: string;
  readonly #attribs: Record<string, string>;
  firstChild: MdNode | null = null;
  lastChild: MdNode | null = null;
  #childNodes: MdNode[] | null = null;
  #children: MdElement[] | null = null;
  /** Cached text; when set, every descendant's is set too (see `changed`). */
  #text: string | null = null;
  /** Cached names of the descendant elements and lists by name (see `getElementsByTagName`), kept like `#text`. */
  #names: Set<string> | null = null;
  #lists: Map<string, MdElement[]> | null = null;

  constructor(localName: string, attribs: Record<string, string>) {
    super();
    this.localName = localName;
    this.nodeName = upperName(localName);
    this.#attribs = attribs;
  }

  appendChild(child: MdNode): void {
    child.parentNode = this;
    child.previousSibling = this.lastChild;
    if (this.lastChild) this.lastChild.nextSibling = child;
    else this.firstChild = child;
    this.lastChild = child;
    this.#childNodes = this.#children = null;
    this.changed();
  }

  removeChild(child: MdNode): MdNode {
    if (child.previousSibling) child.previousSibling.nextSibling = child.nextSibling;
    else this.firstChild = child.nextSibling;
    if (child.nextSibling) child.nextSibling.previousSibling = child.previousSibling;
    else this.lastChild = child.previousSibling;
    child.parentNode = child.previousSibling = child.nextSibling = null;
    this.#childNodes = this.#children = null;
    this.changed();
    return child;
  }

  /** Forgets what is cached about the content of this element and its ancestors (stops early: see `#text`). */
  changed(): void {
    for (
      let el: MdElement | null = this;
      el && (el.#text !== null || el.#names !== null);
      el = el.parentNode
    ) {
      el.#text = el.#names = null;
      el.#lists = null;
    }
  }

  get childNodes(): MdNode[] {
    if (!this.#childNodes) {
      const nodes: MdNode[] = [];
      for (let c = this.firstChild; c; c = c.nextSibling) nodes.push(c);
      this.#childNodes = nodes;
    }
    return this.#childNodes;
  }

  get children(): MdElement[] {
    if (!this.#children) this.#children = this.childNodes.filter((c) => c instanceof MdElement);
    return this.#children;
  }

  get firstElementChild(): MdElement | null {
    return this.children[0] ?? null;
  }

  get lastElementChild(): MdElement | null {
    return this.children.at(-1) ?? null;
  }

  /**
   * turndown reads the text of nearly every element, so the first read joins
   * the whole subtree's text once and gives each descendant element its slice
   * (slices share the joined string; concatenating per element would copy
   * the text once per level).
   */
  get textContent(): string {
    if (this.#text === null) {
      const parts: string[] = [];
      const spans: [MdElement, number, number][] = [];
      let length = 0;
      // Recursive: the mirror of a tree from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
      const collect = (el: MdElement): void => {
        const start = length;
        for (let c = el.firstChild; c; c = c.nextSibling) {
          if (c instanceof MdElement && c.#text === null) collect(c);
          else {
            const text = c.textContent;
            parts.push(text);
            length += text.length;
          }
        }
        spans.push([el, start, length]);
      };
      collect(this);
      const text = parts.join("");
      for (const [el, start, end] of spans) el.#text = text.slice(start, end);
    }
    return this.#text!;
  }

  getAttribute(name: string): string | null {
    const value = this.#attribs[name];
    if (value === undefined || !attributeVisible(this.localName, name)) return null;
    return normalize(value, "\ufffd");
  }

  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }

  get className(): string {
    return this.getAttribute("class") ?? "";
  }

  get classList(): { contains(token: string): boolean } {
    const tokens = this.className.split(/[ \t\n\f\r]+/);
    return { contains: (token) => tokens.includes(token) };
  }

  /** Inline styles are hidden, so no alignment comes from them. */
  get style(): { textAlign: string } {
    return NO_STYLE;
  }

  /** An input's type, as the DOM reflects it (no other element's type matters here). */
  get type(): string | undefined {
    if (this.localName !== "input") return undefined;
    return this.getAttribute("type")?.toLowerCase() ?? "text";
  }

  get checked(): boolean {
    return this.hasAttribute("checked");
  }

  get descendantNames(): Set<string> {
    if (this.#names === null) {
      const names = new Set<string>();
      for (let c = this.firstChild; c; c = c.nextSibling) {
        if (!(c instanceof MdElement)) continue;
        names.add(c.localName);
        for (const name of c.descendantNames) names.add(name);
      }
      this.#names = names;
    }
    return this.#names;
  }

  /**
   * Descendant elements by tag name (any case), in document order. turndown
   * asks for 27 names of every blank element, mostly absent ones, and the gfm
   * plugin for a table's rows once per row and column: the names present and
   * the lists are cached, and built from the children's.
   */
  getElementsByTagName(name: string): MdElement[] {
    const lower = lowerName(name);
    if (!this.descendantNames.has(lower)) return [];
    let list = this.#lists?.get(lower);
    if (!list) {
      list = [];
      for (let c = this.firstChild; c; c = c.nextSibling) {
        if (!(c instanceof MdElement)) continue;
        if (c.localName === lower) list.push(c);
        for (const el of c.getElementsByTagName(lower)) list.push(el);
      }
      this.#lists ??= new Map();
      this.#lists.set(lower, list);
    }
    return list;
  }

  /** Only a tag name as selector (what the gfm plugin asks for). */
  querySelector(selector: string): MdElement | null {
    return this.getElementsByTagName(selector)[0] ?? null;
  }

  /** Table rows, nested tables' included (as domino has it). */
  get rows(): MdElement[] {
    return this.getElementsByTagName("tr");
  }

  /** Markup as domino serialises it: the gfm plugin keeps tables holding lists or headings as HTML. */
  get outerHTML(): string {
    return this.serialize(false);
  }

  /** Markup of the content, for a parser to rebuild this tree (see `turndownInput`). */
  get innerHTML(): string {
    return this.serializeChildren(true);
  }

  serializeChildren(reparse: boolean): string {
    let s = "";
    for (let c = this.firstChild; c; c = c.nextSibling) s += c.serialize(reparse);
    return s;
  }

  serialize(reparse: boolean): string {
    let s = `<${this.localName}`;
    for (const name in this.#attribs) {
      const value = this.getAttribute(name);
      if (value !== null) s += ` ${name}="${escapeAttr(value)}"`;
    }
    s += ">";
    if (VOID_TAGS.has(this.localName)) return s;
    // A parser drops a newline right after `<pre>`: one more keeps a leading one.
    const first = this.firstChild;
    if (reparse && this.localName === "pre" && first instanceof MdText && first.data.startsWith("\n"))
      s += "\n";
    return `${s}${this.serializeChildren(reparse)}</${this.localName}>`;
  }
}
