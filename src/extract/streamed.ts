import { type Comment, isComment } from "domhandler";
import { MAX_DOM_DEPTH } from "./depth.ts";
import { type AnyNode, type Element, forEachElement, type ParentNode } from "./nodes.ts";

/**
 * Content a page streams after its shell (React's streaming server rendering, as Next.js's app
 * router and others serve it): the shell shows a fallback (a spinner, an empty `<template
 * id="B:1">`), and the real content arrives later in the same response inside `<div hidden
 * id="S:1">`, with a script (`$RC("B:1","S:1")`) that moves it into place as soon as it is
 * parsed. A browser shows it where the fallback was; read as markup, it is hidden and out of
 * order, so a product page's title, price and details were dropped with the hidden elements.
 * The instructions are read as React's inline runtime runs them, in document order:
 * - `$RC(boundary, segment)` and `$RR(boundary, segment, styles)`: the segment's children replace
 *   the boundary's fallback (from the `<!--$?-->` before `<template id=boundary>` to its `<!--/$-->`);
 * - `$RS(segment, placeholder)`: the segment's children replace `<template id=placeholder>`;
 * - the same as `<template data-rci|data-rri data-bid data-sid>` and `<template data-rsi data-sid
 *   data-pid>` (the runtime loaded as a file instead of inline).
 * A segment is only ever a hidden `<div>`: an instruction naming anything else is not followed.
 */

/** A move: the children of `segment` go where `target` stands (a boundary's fallback or a placeholder). */
interface Move {
  boundary: boolean;
  target: string;
  segment: string;
}

const SCRIPT_MOVE = /\$R([CRS])\("([^"]{1,64})","([^"]{1,64})"/g;

function scriptMoves(html: string): Move[] {
  const moves: Move[] = [];
  for (const [, kind, first, second] of html.matchAll(SCRIPT_MOVE)) {
    if (kind === "S") moves.push({ boundary: false, segment: first!, target: second! });
    else moves.push({ boundary: true, target: first!, segment: second! });
  }
  return moves;
}

function attributeMove(el: Element): Move | null {
  const { attribs } = el;
  const segment = attribs["data-sid"];
  if (!segment) return null;
  if ("data-rsi" in attribs && attribs["data-pid"])
    return { boundary: false, segment, target: attribs["data-pid"] };
  if (("data-rci" in attribs || "data-rri" in attribs) && attribs["data-bid"])
    return { boundary: true, segment, target: attribs["data-bid"] };
  return null;
}

/** Ids the runtime looks up: `S:`, `B:` and `P:` followed by React's id. */
function isStreamId(id: string): boolean {
  return id.length > 2 && id[1] === ":" && (id[0] === "S" || id[0] === "B" || id[0] === "P");
}

/** What the instructions decided, read off the tree in one walk. */
interface Plan {
  /** The children to put at each target (a boundary's template or a placeholder), and whether it is a boundary. */
  at: Map<Element, { segment: Element; boundary: boolean }>;
  /** Segments that leave their place. */
  moved: Set<Element>;
  /** Elements holding a target or a moved segment, at any depth: only these are rebuilt. */
  dirty: Set<AnyNode>;
  /** Levels of elements each segment holds (1 for a segment of text), for the depth bound. */
  height: Map<Element, number>;
}

/** The heights of `segments`, each one walk of its subtree (without recursion: any depth). */
function heights(segments: Element[]): Map<Element, number> {
  const out = new Map<Element, number>();
  for (const segment of segments) {
    let max = 1;
    const stack: [AnyNode, number][] = [[segment, 1]];
    while (stack.length) {
      const [node, depth] = stack.pop()!;
      if (depth > max) max = depth;
      if ("children" in node)
        for (const child of node.children) if (child.type !== "text") stack.push([child, depth + 1]);
    }
    out.set(segment, max);
  }
  return out;
}

function plan(root: ParentNode, html: string): Plan | null {
  const byId = new Map<string, Element>();
  const moves = scriptMoves(html);
  forEachElement(root, (el) => {
    const id = el.attribs.id;
    if (id && isStreamId(id) && !byId.has(id)) byId.set(id, el);
    if (el.name === "template") {
      const move = attributeMove(el);
      if (move) moves.push(move);
    }
  });
  const at = new Map<Element, { segment: Element; boundary: boolean }>();
  const moved = new Set<Element>();
  for (const { boundary, target, segment } of moves) {
    const source = byId.get(segment);
    const place = byId.get(target);
    // Each segment and each target is used once: after its move it is no longer in the document.
    if (!source || !place || moved.has(source) || at.has(place) || place === source) continue;
    if (source.name !== "div" || !("hidden" in source.attribs)) continue;
    moved.add(source);
    at.set(place, { segment: source, boundary });
  }
  if (!at.size) return null;
  const dirty = new Set<AnyNode>();
  for (const node of [...at.keys(), ...moved])
    for (let up = node.parent; up && !dirty.has(up); up = up.parent) dirty.add(up);
  return { at, moved, dirty, height: heights([...moved]) };
}

/** The boundary's fallback after `open` (its `<!--$?-->`): the nodes up to the comment closing it, which is answered too (null if none). */
function fallbackEnd(open: Comment): AnyNode | null {
  let depth = 0;
  for (let node = open.next; node; node = node.next) {
    if (!isComment(node)) continue;
    const mark = node.data;
    if (mark === "/$") {
      if (depth === 0) return node;
      depth--;
    } else if (mark === "$" || mark === "$?" || mark === "$!") depth++;
  }
  return null;
}

/**
 * Moves streamed segments into the places their instructions name, as a browser running the page's
 * scripts would. Each parent that holds a target or a segment is rebuilt once, so a page of many
 * segments costs one pass; content is placed only where it stays within MAX_DOM_DEPTH, the bound
 * every later walk relies on (a deeper placement keeps its fallback).
 */
export function placeStreamedContent(root: ParentNode, html: string): void {
  const p = plan(root, html);
  if (!p) return;
  const rebuild = (parent: ParentNode, depth: number): void => {
    const out: AnyNode[] = [];
    // The segment's children in `target`'s place, rebuilt in turn, when they fit under the depth bound.
    const place = (target: Element): boolean => {
      const move = p.at.get(target);
      if (!move || depth + p.height.get(move.segment)! - 1 > MAX_DOM_DEPTH) return false;
      p.at.delete(target);
      const children = move.segment.children;
      move.segment.children = [];
      const inner = { children } as ParentNode;
      rebuild(inner, depth);
      out.push(...inner.children);
      return true;
    };
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (p.moved.has(child as Element)) continue;
      const next = child.next;
      if (isComment(child) && child.data === "$?" && next?.type === "tag" && p.at.get(next)?.boundary) {
        const end = fallbackEnd(child);
        out.push(child);
        if (place(next)) {
          child.data = "$";
          // Skip the fallback: on to the closing comment (or past the parent's end).
          const stop = end ? children.indexOf(end as never, i) : children.length;
          i = stop - 1;
          continue;
        }
        continue;
      }
      if (child.type === "tag" && p.at.has(child) && place(child)) continue;
      out.push(child);
      if (p.dirty.has(child) && "children" in child) rebuild(child, depth + 1);
    }
    parent.children = out as never[];
    out.forEach((node, i) => {
      node.parent = parent;
      node.prev = out[i - 1] ?? null;
      node.next = out[i + 1] ?? null;
    });
  };
  rebuild(root, 0);
}
