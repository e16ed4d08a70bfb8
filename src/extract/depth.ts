import {
  type ChildNode,
  type Document,
  DomHandler,
  type DomHandlerOptions,
  type ParentNode,
} from "domhandler";
import { Parser, type ParserOptions } from "htmlparser2";

/**
 * How deep elements nest in every tree siphon parses. Chromium's HTML parser
 * stops nesting at 512 open elements (HTMLConstructionSite,
 * kMaximumHTMLParserDOMTreeDepth) and puts further elements beside the
 * deepest one, so no page a browser shows is deeper. With the tree bounded
 * here, right where it is built, every later walk over it (siphon's and the
 * libraries': turndown, dom-serializer, domutils' textContent, css-select) is
 * bounded too, recursive or not: 513 levels at most, text included.
 */
export const MAX_DOM_DEPTH = 512;

/**
 * A DomHandler that builds what a browser builds from markup nested past
 * MAX_DOM_DEPTH: an element opened deeper goes beside the deepest one (a
 * child of the element at depth MAX_DOM_DEPTH - 1), as Chromium does. Text
 * stays inside its element while that element is still the last one there;
 * once a later element went beside it, the text follows that element, so all
 * text keeps its document order (Chromium would put it back inside its
 * element, out of order).
 */
export class BoundedDomHandler extends DomHandler {
  override addNode(node: ChildNode): void {
    const stack = this.tagStack;
    // stack[0] is the document; the node would sit at depth stack.length.
    if (stack.length <= MAX_DOM_DEPTH) {
      super.addNode(node);
      return;
    }
    const deepest = stack[MAX_DOM_DEPTH - 1]!;
    const current = stack[stack.length - 1]!;
    const isElement = node.type === "tag" || node.type === "script" || node.type === "style";
    const parent = !isElement && deepest.children.at(-1) === current ? current : deepest;
    appendChild(parent, node);
    this.lastNode = null;
  }
}

function appendChild(parent: ParentNode, node: ChildNode): void {
  const previous = parent.children.at(-1) ?? null;
  parent.children.push(node);
  node.parent = parent;
  node.prev = previous;
  node.next = null;
  if (previous) previous.next = node;
}

/**
 * Parses markup with htmlparser2 (iterative, so any depth parses) into a
 * domhandler Document no deeper than MAX_DOM_DEPTH elements. `options` are
 * htmlparser2's (xmlMode, decodeEntities). Never throws on malformed markup;
 * throws a TypeError when `markup` is not a string (as cheerio's load does).
 */
export function parseBounded(markup: string, options: ParserOptions & DomHandlerOptions = {}): Document {
  if (typeof markup !== "string") throw new TypeError("parseBounded() expects a string");
  const handler = new BoundedDomHandler(null, options);
  new Parser(handler, options).end(markup);
  return handler.root;
}
