import { WORD_CHAR } from "./hidden.ts";
import { type AnyNode, type Element, hasDescendant, isElement, removeNode, textOf } from "./nodes.ts";

/**
 * A page laid out twice, once for phones and once for desktops, prints some things twice: a post's
 * date in the phone's author box and in the desktop's header, a comparison grid's row label in
 * every cell for phones and once as the desktop's row header. The content is read as a desktop
 * shows it: a part that only phones show goes when every run of its text is also in what desktops
 * show. A part that only phones show and whose text is nowhere else stays (a phone's summary of a
 * table is the only place it is said).
 */

/** Breakpoints up to a desktop's width (1280 px): Tailwind's and Bootstrap's names, smallest first. */
const UP_TO_DESKTOP = ["sm", "md", "lg", "xl"];

/** A breakpoint class that hides (`md:hidden`, `d-lg-none`) or shows (`md:block`, `d-lg-flex`) from its width up. */
const AT_WIDTH =
  /^(?:(sm|md|lg|xl):(hidden|block|flex|grid|inline|inline-block|inline-flex|table|contents)|d-(sm|md|lg|xl)-(none|block|flex|grid|inline|inline-block|inline-flex|table))$/;

/**
 * Classes that name the phone-only layout: Invision's `ipsResponsive_showPhone`, Bootstrap 3's
 * `visible-xs` and `hidden-lg`, Bulma's `is-hidden-desktop`, Foundation's `show-for-small-only`
 * and `hide-for-large`, and the plain `hide-desktop`, `mobile-only`, `show-mobile`.
 */
const PHONE_ONLY =
  /(?:^|\s)(?:[\w-]*_)?(?:showPhone|visible-xs|hidden-lg|hide-desktop|hidden-desktop|is-hidden-desktop|hide-on-desktop|mobile-only|only-mobile|show-mobile|show-on-mobile|visible-mobile|show-for-small-only|hide-for-large)(?:$|\s)/;

/** What every class above holds somewhere: elements without it are not looked at further. */
const MAY_BE_PHONE_ONLY = /:hidden|-none|showPhone|visible-xs|hidden-lg|desktop|mobile|small-only|for-large/;

/** True for an element shown below a desktop's width and hidden at it: a phone's (or a tablet's) part. */
export function isPhoneOnly(el: Element): boolean {
  const cls = el.attribs.class;
  return cls !== undefined && isPhoneOnlyClass(cls);
}

/** True for a class attribute that shows its element below a desktop's width only. */
export function isPhoneOnlyClass(cls: string): boolean {
  if (!MAY_BE_PHONE_ONLY.test(cls)) return false;
  if (PHONE_ONLY.test(cls)) return true;
  // Hidden by the last breakpoint rule up to a desktop's width (cleaning took what no width shows).
  const rules = new Map<string, boolean>();
  for (const word of cls.split(/\s+/)) {
    const m = AT_WIDTH.exec(word);
    if (m) rules.set((m[1] ?? m[3]) as string, (m[2] ?? m[4]) === "hidden" || m[4] === "none");
  }
  let hidden = false;
  for (const width of UP_TO_DESKTOP) hidden = rules.get(width) ?? hidden;
  return hidden;
}

/** What a part shows besides text. */
const MEDIA = new Set(["img", "picture", "video", "audio", "iframe", "canvas", "object", "embed"]);

/** Places of a run looked at, at most, for one as whole words: a letter found inside every word of a page costs no more. */
const MAX_PLACES = 64;

/** True when `text` is in `within` as whole words (not "Cancel" inside "Cancellation"). */
function holdsWords(within: string, text: string): boolean {
  // A run's edge that is no letter or digit (a comma, a bracket) needs no word edge beside it.
  const opensWord = WORD_CHAR.test(text[0] as string);
  const closesWord = WORD_CHAR.test(text.at(-1) as string);
  let places = 0;
  for (let at = within.indexOf(text); at >= 0 && places++ < MAX_PLACES; at = within.indexOf(text, at + 1)) {
    const before = within[at - 1];
    const after = within[at + text.length];
    if (
      (!opensWord || before === undefined || !WORD_CHAR.test(before)) &&
      (!closesWord || after === undefined || !WORD_CHAR.test(after))
    )
      return true;
  }
  return false;
}

/**
 * Removes, under `roots`, the parts only phones show whose every run of text (each text node, as
 * a desktop lays the same words out in other boxes) is also in what the roots show a desktop;
 * answers the roots left (a root can be such a part itself).
 */
export function dropPhoneTwins(roots: Element[]): Element[] {
  // Most pages have no such part: one look at every element's class finds so, and nothing is read.
  const phoneOnly = outermost(roots, isPhoneOnly);
  if (!phoneOnly.length) return roots;
  const skip = new Set(phoneOnly);
  const desktopRuns: string[] = [];
  const stack: AnyNode[] = [...roots].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "text") desktopRuns.push(node.data);
    else if (isElement(node) && node.type === "tag" && !skip.has(node))
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  const desktop = desktopRuns.join(" ").replace(/\s+/g, " ").trim();
  const dropped = new Set<Element>();
  for (const el of phoneOnly) {
    // A picture or video is no run of text: a part holding one is the phone's own (its image sized for phones).
    if (hasDescendant(el, MEDIA)) continue;
    const runs = runsOf(el);
    if (runs.length && runs.every((run) => holdsWords(desktop, run))) {
      removeNode(el);
      dropped.add(el);
    }
  }
  return dropped.size ? roots.filter((root) => !dropped.has(root)) : roots;
}

/** The elements under `roots` that pass `test`, not looking inside those that do. */
function outermost(roots: Element[], test: (el: Element) => boolean): Element[] {
  const found: Element[] = [];
  const stack: AnyNode[] = [...roots].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node) || node.type !== "tag") continue;
    if (test(node)) found.push(node);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return found;
}

/** The runs of text under `el` that hold words, whitespace collapsed. */
function runsOf(el: Element): string[] {
  const runs: string[] = [];
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "text") {
      const run = textOf(node);
      if (WORD_CHAR.test(run)) runs.push(run);
    } else if (isElement(node) && node.type === "tag") for (const child of node.children) stack.push(child);
  }
  return runs;
}
