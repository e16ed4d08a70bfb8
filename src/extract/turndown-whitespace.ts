import { MdElement, type MdNode, MdText, words } from "./turndown-dom.ts";

/**
 * turndown's whitespace collapsing, done on the DOM mirror (turndown-dom.ts)
 * before turndown sees it.
 *
 * turndown collapses the whitespace of the tree it is given before
 * converting it: HTML's rules, in document order, each element visited on
 * the way in and (if it holds anything) on the way out. It asks of every
 * visit whether the element is a block and whether it is void, each a linear
 * search of a list of tag names: a tenth of a page's extraction. Here each
 * element's answer comes from set lookups by name, and turndown gets
 * `collapsedView` of the root, which it finds nothing to collapse in. Same
 * rules, same order, so the markdown is the same (turndown-dom.test.ts checks
 * it against turndown's own collapsing).
 */

/** turndown's block elements (its `blockElements`) and `<br>`: whitespace before them is trimmed. */
const BREAKING = new Set(
  words(
    "ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL BR",
  ),
);
/** turndown's void elements that are not blocks: the whitespace after them is kept. */
const KEEPING = new Set(
  words("AREA BASE COL COMMAND EMBED IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR"),
);

/** Whether collapsing changes `text`: it holds a line break or tab, or two spaces in a row (string searches, not a regular expression: these are several times faster). */
const collapsible = (text: string): boolean =>
  text.includes("\n") || text.includes("  ") || text.includes("\t") || text.includes("\r");

const OTHER = 0;
const BREAKS = 1;
const KEEPS = 2;

const kindOf = (el: MdElement): number =>
  BREAKING.has(el.nodeName) ? BREAKS : KEEPING.has(el.nodeName) ? KEEPS : OTHER;

/** The node after `current` in turndown's walk: into an element (not a `<pre>`), else on or up. */
function next(prev: MdNode | null, current: MdNode): MdNode {
  if ((prev && prev.parentNode === current) || current.nodeName === "PRE")
    return (current.nextSibling ?? current.parentNode) as MdNode;
  const first = current instanceof MdElement ? current.firstChild : null;
  return (first ?? current.nextSibling ?? current.parentNode) as MdNode;
}

/** Removes `node` and returns the node the walk goes on with. */
function remove(node: MdNode): MdNode {
  const parent = node.parentNode as MdElement;
  const following = node.nextSibling ?? parent;
  parent.removeChild(node);
  return following;
}

/** Collapses whitespace inside `root` as turndown's `collapseWhitespace` would. */
export function collapseWhitespace(root: MdElement): void {
  if (!root.firstChild || root.nodeName === "PRE") return;
  let prevText: MdText | null = null;
  let keepLeadingWs = false;
  let prev: MdNode | null = null;
  let node = next(prev, root);
  while (node !== root) {
    if (node instanceof MdText) {
      // Only where there is something to collapse: replacing each single space between words with
      // one space again (a match a word) cost as much as the rest of turndown's conversion.
      let text = collapsible(node.data) ? node.data.replace(/[ \r\n\t]+/g, " ") : node.data;
      if ((!prevText || prevText.data.endsWith(" ")) && !keepLeadingWs && text[0] === " ")
        text = text.slice(1);
      if (!text) {
        node = remove(node);
        continue;
      }
      if (text !== node.data) node.data = text;
      prevText = node;
    } else {
      const kind = kindOf(node as MdElement);
      if (kind === BREAKS) {
        if (prevText?.data.endsWith(" ")) prevText.data = prevText.data.slice(0, -1);
        prevText = null;
        keepLeadingWs = false;
      } else if (kind === KEEPS) {
        prevText = null;
        keepLeadingWs = true;
      } else if (prevText) keepLeadingWs = false;
    }
    const following = next(prev, node);
    prev = node;
    node = following;
  }
  if (prevText) {
    if (prevText.data.endsWith(" ")) prevText.data = prevText.data.slice(0, -1);
    if (!prevText.data) remove(prevText);
  }
}

/**
 * What turndown is handed for a root whose whitespace `collapseWhitespace`
 * collapsed: the root's children under a stand-in without a first child,
 * which turndown's collapsing passes over (it converts `childNodes`, and
 * `cloneNode` is how it takes a tree it may change).
 */
export function collapsedView(root: MdElement): unknown {
  const view = {
    nodeType: 1,
    nodeName: root.nodeName,
    firstChild: null,
    childNodes: root.childNodes,
    cloneNode: () => view,
  };
  return view;
}
