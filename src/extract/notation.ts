import {
  type AnyNode,
  contains,
  type Element,
  forEachElement,
  isElement,
  smallTextOf,
  textOf,
} from "./nodes.ts";
import { drawnScript } from "./scripts-text.ts";

/**
 * How the renderers (markdown, text) should show an element that a page
 * marks up by a convention rather than with plain HTML:
 * - math: MathML, KaTeX or MathJax, as its TeX source (`$x^2$`, `$$...$$`);
 * - fnref / fndef: a footnote reference (`[^1]`) and its definition
 *   (`[^1]: ...`), from the usual footnote markup (`#fn:1` links into a
 *   `footnotes` list, DPub ARIA roles, Wikipedia's `cite_note`);
 * - drop: a footnote's "back to text" link;
 * - text: a superscript or subscript of digits and signs, in Unicode's script
 *   characters (`x²`, `H₂O`, see scripts-text.ts).
 */
export type Notation =
  | { kind: "math"; tex: string; block: boolean }
  | { kind: "text"; text: string }
  | { kind: "fnref"; label: string }
  | { kind: "fndef"; label: string }
  | { kind: "drop" };

export type Notations = ReadonlyMap<Element, Notation>;

/** MathML elements whose children are laid out as a TeX construct. */
const MATHML_OPS: Record<string, (parts: string[]) => string> = {
  msup: ([a, b]) => `${group(a)}^${group(b)}`,
  msub: ([a, b]) => `${group(a)}_${group(b)}`,
  msubsup: ([a, b, c]) => `${group(a)}_${group(b)}^${group(c)}`,
  mfrac: ([a, b]) => `\\frac{${a ?? ""}}{${b ?? ""}}`,
  msqrt: (parts) => `\\sqrt{${parts.join("")}}`,
  mroot: ([a, b]) => `\\sqrt[${b ?? ""}]{${a ?? ""}}`,
  mover: ([a, b]) => `\\overset{${b ?? ""}}{${a ?? ""}}`,
  munder: ([a, b]) => `\\underset{${b ?? ""}}{${a ?? ""}}`,
};

/** A TeX argument: one character as is, more in braces. */
function group(s: string | undefined): string {
  const t = (s ?? "").trim();
  return t.length <= 1 ? t : `{${t}}`;
}

/** TeX for presentation MathML without a TeX annotation: scripts, fractions and roots, the rest as its text. */
function mathmlToTex(el: Element): string {
  const parts: string[] = [];
  for (const child of el.children as AnyNode[]) {
    if (child.type === "text") {
      const text = child.data.replace(/\s+/g, " ").trim();
      if (text) parts.push(text);
    } else if (isElement(child) && child.name !== "annotation" && child.name !== "annotation-xml") {
      parts.push(mathmlToTex(child));
    }
  }
  const op = MATHML_OPS[el.name];
  if (op) return op(parts);
  return el.name === "mtext" ? parts.join(" ") : parts.join("");
}

/** The TeX of a `<math>` element: its TeX annotation when it carries one (KaTeX, MathJax 3), else rebuilt. */
function mathTex(math: Element): string {
  let annotation: Element | null = null;
  forEachElement(math, (el) => {
    if (!annotation && el.name === "annotation" && /tex/i.test(el.attribs.encoding ?? "")) annotation = el;
  });
  const tex = annotation ? textOf(annotation) : mathmlToTex(math);
  return tex.replace(/\s+/g, " ").trim();
}

/** Whether a math element is set on its own line: `display="block"` or a KaTeX/MathJax display wrapper. */
function isDisplay(el: Element): boolean {
  if (el.attribs.display === "block" || el.attribs.mode === "display") return true;
  for (let up = el.parent as Element | null, i = 0; up && i < 3; up = up.parent as Element | null, i++) {
    if (/(?:^|\s)(?:katex-display|MathJax_Display|math-display)(?:$|\s)/.test(up.attribs?.class ?? ""))
      return true;
    if (up.name === "mjx-container" && up.attribs.display === "true") return true;
  }
  return false;
}

/** Class words and roles of a footnote list, its references and its back links. */
const NOTES_CONTAINER = /(?:^|[\s_-])(?:footnotes?|endnotes?|references|reflist|notes)(?:$|[\s_-])/i;
const NOTE_REF = /(?:^|\s)(?:footnote-ref|footnote-reference|footnote_reference|fnref|noteref)(?:$|\s)/i;
const BACK_REF = /(?:^|\s)(?:footnote-backref|footnote-back-ref|fnbackref|backref|reversefootnote)(?:$|\s)/i;

/** The text of a link back from a note to where it is cited. */
const BACK_ARROW = /^[↩↑⤴^]+$/;

/** A short label from a note's id: the number in "fn:1", "fn1", "cite_note-Smith-3", else the id. */
function labelOf(id: string): string {
  const digits = /(\d+)\D*$/.exec(id);
  return digits ? digits[1]! : id.replace(/[^\w-]+/g, "-");
}

function targetId(a: Element): string | null {
  const href = a.attribs.href?.trim();
  if (!href?.startsWith("#") || href.length < 2) return null;
  try {
    return decodeURIComponent(href.slice(1));
  } catch {
    return href.slice(1);
  }
}

/** True when `el` sits in a footnotes section (by class, id or DPub role). */
function inNotesContainer(el: Element): boolean {
  for (let up: AnyNode | null = el; up && isElement(up); up = up.parent) {
    const a = up.attribs;
    if (a.role === "doc-endnotes" || a.role === "doc-footnotes") return true;
    if (NOTES_CONTAINER.test(`${a.class ?? ""} ${a.id ?? ""}`)) return true;
  }
  return false;
}

/**
 * Finds the math and footnotes in content roots. Read-only: the renderers
 * consult the result, so the content tree (and its HTML) stays as it was.
 */
export function findNotations(roots: readonly Element[]): Notations {
  const marks = new Map<Element, Notation>();
  const byId = new Map<string, Element>();
  const refs: [Element, string][] = [];
  /** Elements with an id, in document order: a note comes after its reference. */
  const order = new Map<Element, number>();
  const visit = (root: Element): void => {
    forEachElement(root, (el) => {
      const a = el.attribs;
      if (a.id) {
        byId.set(a.id, el);
        order.set(el, order.size);
      }
      if (el.name === "math") {
        if (!marks.has(el)) marks.set(el, { kind: "math", tex: mathTex(el), block: isDisplay(el) });
      } else if (el.name === "script" && /^math\/tex/i.test(a.type ?? "")) {
        const tex = textOf(el) || (el.children[0]?.type === "text" ? el.children[0].data.trim() : "");
        marks.set(el, { kind: "math", tex, block: /mode\s*=\s*display/i.test(a.type ?? "") });
      } else if (el.name === "sup" || el.name === "sub") {
        // A footnote's own mark, found below, is marked as that instead.
        const drawn = drawnScript(el);
        if (drawn !== null) marks.set(el, { kind: "text", text: drawn });
      } else if (el.name === "a") {
        const target = targetId(el);
        if (
          BACK_REF.test(a.class ?? "") ||
          a.role === "doc-backlink" ||
          (target && BACK_ARROW.test(shortText(el)))
        )
          marks.set(el, { kind: "drop" });
        else if (target) refs.push([el, target]);
      }
    });
  };
  for (const root of roots) {
    if (root.attribs?.id) byId.set(root.attribs.id, root);
    visit(root);
  }
  // Links by the id they go to: a note that links back to its reference is its pair.
  const linksTo = new Map<string, Element[]>();
  for (const [a, target] of refs) {
    const list = linksTo.get(target);
    if (list) list.push(a);
    else linksTo.set(target, [a]);
  }
  // A link is a footnote reference when it says so, when it points into a footnotes list, or
  // when the note it points to links back to it (Substack's `footnote-anchor` and `footnote-number`,
  // whatever the class names); a link from a note back into the text is the note's way back.
  const defs = new Set<Element>();
  for (const [a, target] of refs) {
    const note = byId.get(target);
    if (!note || marks.has(a)) continue;
    // The note's block: the note itself, or the block around an inline mark (a note comes after its reference).
    const block = NOTE_TAGS.has(note.name) ? note : INLINE_TARGETS.has(note.name) ? noteItem(note) : null;
    const ordered = (order.get(a) ?? Infinity) < (order.get(note) ?? -1);
    const back = block && ordered ? pairedBack(a, block, linksTo) : null;
    const declared =
      back !== null || NOTE_REF.test(a.attribs.class ?? "") || a.attribs.role === "doc-noteref";
    const fromNotes = inNotesContainer(a);
    const toNotes = inNotesContainer(note);
    if (fromNotes && !toNotes && back === null) {
      marks.set(a, { kind: "drop" });
      continue;
    }
    if (!declared && (fromNotes || !toNotes)) continue;
    const label = labelOf(target);
    marks.set(a, { kind: "fnref", label });
    if (back) {
      marks.set(back, { kind: "drop" });
      // The note's own number ("<span id=n1>1</span> The note"): its definition's label says it.
      if (!NOTE_TAGS.has(note.name) && NOTE_MARK.test(shortText(note))) marks.set(note, { kind: "drop" });
    }
    const item = NOTE_TAGS.has(note.name) || back ? block : null;
    if (item && !defs.has(item)) {
      defs.add(item);
      marks.set(item, { kind: "fndef", label });
    }
  }
  // A superscript holding a footnote's reference or its way back shows that, not its digits.
  for (const [el, mark] of marks) {
    const up = el.parent;
    if (mark.kind !== "text" && up && isElement(up) && marks.get(up)?.kind === "text") marks.delete(up);
  }
  return marks;
}

/**
 * The text of a mark (a note's number, a way back's arrow): "" for an element of more than a few
 * nodes, which is no mark, read no further (nested links each read all of one).
 */
function shortText(el: Element): string {
  return smallTextOf(el, MARK_NODES) ?? "";
}
const MARK_NODES = 32;

/** Elements a note's text is held in, as its definition. */
const NOTE_TAGS = new Set(["li", "div", "p"]);

/** A footnote's mark as its reference shows it: a number, a letter, a numeral or a symbol, bracketed or not. */
const NOTE_MARK = /^[[(]?(?:\d{1,4}|[a-z]|[ivxlc]{1,6}|[*†‡§¶#]{1,3})[\])]?$/i;
/** What a note's own mark may be drawn in, when it is not the note's block. */
const INLINE_TARGETS = new Set(["a", "span", "sup", "b", "strong", "small", "cite"]);

/**
 * The note's way back to reference `a`, which shows a footnote's mark: a link to `a`'s id inside
 * (or being) the note's block; else null.
 */
function pairedBack(a: Element, block: Element, linksTo: Map<string, Element[]>): Element | null {
  const id = a.attribs.id;
  if (!id || !NOTE_MARK.test(shortText(a))) return null;
  return linksTo.get(id)?.find((link) => contains(block, link)) ?? null;
}

/** The block holding an inline note target (Substack's number link inside `div.footnote`). */
function noteItem(note: Element): Element | null {
  for (let up = note.parent; up && isElement(up); up = up.parent) if (NOTE_TAGS.has(up.name)) return up;
  return null;
}
