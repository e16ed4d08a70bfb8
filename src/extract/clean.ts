import { isHiddenChrome, isTabPanel, WORD_CHAR } from "./hidden.ts";
import { dropHoverCards } from "./hover-cards.ts";
import { isIconBesideText, isPixel } from "./images.ts";
import { JUNK_WORDS } from "./junk-words.ts";
import {
  type AnyNode,
  BLOCK_TAGS,
  type Element,
  forEachElement,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  isEmbeddedPost,
  listsOtherPages,
  nameWords,
  smallTextOf,
  someDescendant,
  TOC_WORD,
  unlinkSiblings,
  visibleTextLength,
  wordsOf,
} from "./nodes.ts";
import { emptyInvisibleText, isMachineText } from "./non-words.ts";
import { dropMediaFallback, isAdLabel, isConsentNotice, isScriptNotice, isSlideCount } from "./notices.ts";
import { DIALOG_CONTROLS, IMAGES, isPanelSection, opensOverlay, PANEL_WORDS } from "./panels.ts";
import { quoteSharedSentence, SHARE_HREF } from "./share-quotes.ts";
import { dropSignupBoxes, isSignupForm } from "./signup.ts";
import { dropTickerCopies } from "./tickers.ts";
import { isVersionPicker } from "./version-pickers.ts";

/** Elements that never carry readable content. */
const DROP_TAGS = new Set([
  "script",
  "style",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "link",
  "meta",
  "head",
  "title",
  "base",
  "input",
  "select",
  "textarea",
  "button",
  "dialog",
  "nav",
  "map",
]);

/** Consent and cookie banners, matched anywhere in class or id ("ngCookiePrompt", "bbccookies-banner"). */
const CONSENT = /cookie|consent|gdpr/;
/** What names a consent box a dialog of its own, not a page about cookies (a cookie policy). */
const CONSENT_DIALOG = /(?:^|[\s_-])(?:modal|dialog|popup|pop-up|banner)(?=$|[\s_-])/;

/** ARIA roles that are site chrome wherever they sit (a tooltip is shown only while hovered). */
const CHROME_ROLES = new Set([
  "navigation",
  "search",
  "alert",
  "dialog",
  "alertdialog",
  "menu",
  "menubar",
  "toolbar",
  "tooltip",
]);

/**
 * Class/id words for header and footer chrome (only outside the page's
 * article or main area): a header token, or "footer" anywhere in a token
 * ("all-screen-footer-wrap"); "header" is too common inside tokens of
 * content ("section-header") to match that way. A site's copyright line and
 * colophon are its footer whatever the element holding them is called.
 */
const HEADER_FOOTER_WORDS =
  /(?:^|\s)(?:header|page-?header|site-?header)(?:$|\s)|(?:^|[\s_-])(?:footer|copyright|colophon)(?:$|[\s_-])/;

/**
 * What a permalink anchor shows by a heading or term (Sphinx's and MkDocs' "¶", Docusaurus' "#" or
 * zero-width space, rustdoc's "§", a link symbol, or only an icon): no word, and none of the marks
 * of a footnote reference ("*", "†", digits).
 */
const PERMALINK_TEXT = /^[\s\u200b-\u200d\u2060\ufeff¶#§🔗⚓∞]*$/u;

/** A link to a place on the same page that shows only a permalink symbol: a doc generator's anchor. */
function isPermalink(el: Element, href: string): boolean {
  if (!href.startsWith("#")) return false;
  // An anchor is a symbol or an icon: a bigger link is read no further (nested ones each walked it all).
  const text = smallTextOf(el, CONTROL_NODES);
  return text !== null && PERMALINK_TEXT.test(text) && !hasDescendant(el, IMAGES);
}

/** Words up to which a link that goes nowhere is a control ("Reply", "Add a comment", "Cookie settings"). */
const CONTROL_WORDS = 3;

/**
 * A link that goes nowhere (`#` alone, `javascript:`), or an element other
 * than a link with an address that says it is a button (`role="button"`:
 * XenForo's `<a role="button">Click to expand...</a>`, a shop's `<div
 * role="button">Add to wishlist</div>`), with a few words: a button drawn
 * otherwise, which a script makes work ("Reply", "Add a comment", "Show
 * more"). Its words are no more the page's text than a button's are, unless
 * they are words of the sentence around it ("Click <a href=#>here</a> to
 * expand"): those stay, as text.
 */
function isControlLink(el: Element, href: string): boolean {
  return (href === "#" || /^javascript:/i.test(href)) && isControl(el);
}

/** Whether `el` reads as a button: a few words, no picture, no sentence running up to it. */
function isControl(el: Element): boolean {
  // A control is a few nodes (its label, an icon): a bigger element is read no further, so that
  // nested ones do not each walk all of it.
  const text = smallTextOf(el, CONTROL_NODES);
  return (
    text !== null && wordsOf(text).length <= CONTROL_WORDS && !hasDescendant(el, IMAGES) && !inSentence(el)
  );
}

/** Nodes a control holds at most: its label and an icon's drawing. */
const CONTROL_NODES = 200;

/**
 * Whether a button opens a part of the page it names (an accordion's `<div role="button"
 * aria-expanded="false"><h3>Undergraduate</h3></div>` over its panel): its words title that part.
 */
function isDisclosure(el: Element): boolean {
  return (
    el.attribs["aria-expanded"] !== undefined || HEADING_TAGS.has(el.name) || hasDescendant(el, HEADING_TAGS)
  );
}

/** Whether text with a word runs right up to `el` on either side: it is read as part of a sentence. */
function inSentence(el: Element): boolean {
  const before = el.prev;
  const after = el.next;
  return (
    (before?.type === "text" && SENTENCE_BEFORE.test(before.data)) ||
    (after?.type === "text" && SENTENCE_AFTER.test(after.data))
  );
}

/** A word, then at most a space, up to the element; and from it, at most a space then a word. */
const SENTENCE_BEFORE = /[\p{L}\p{N}][,;:]?\s?$/u;
const SENTENCE_AFTER = /^\s?[\p{L}\p{N}]/u;

/** Text above which a class-matched element is content despite its name (e.g. `<div class="share-wrap">` around a whole article). */
const GUARD_TEXT = 1500;

/** Site footers carry address blocks, link columns and blurbs: allow them more text than a widget. */
const CHROME_GUARD_TEXT = 5000;

/**
 * A task list's checkbox (`<li><input type="checkbox" checked> Map`): markdown keeps it as `[x]`.
 * Its task follows it on the line; a checkbox before a block (a thread's fold toggle, `<li><input
 * type="checkbox"><div class="comment">`) is a control.
 */
function isTaskBox(el: Element): boolean {
  if (el.name !== "input" || el.attribs.type !== "checkbox" || (el.parent as Element | null)?.name !== "li")
    return false;
  let next = el.next;
  while (next && next.type === "text" && !WORD_CHAR.test(next.data)) next = next.next;
  return (
    next !== null &&
    (next.type === "text" || (isElement(next) && (next.name === "p" || !BLOCK_TAGS.has(next.name))))
  );
}

/**
 * An accordion's trigger: a button holding all of its heading's text (`<h3><button
 * aria-expanded="false">What is an HRMS?</button></h3>`, the WAI-ARIA accordion pattern). Its
 * text is the heading's and stays; a button beside a heading's own text ("Copy item path") is a
 * control, as buttons are.
 */
function isHeadingTrigger(el: Element, headingText: (heading: Element) => number): boolean {
  if (el.name !== "button") return false;
  let up = el.parent;
  while (up && isElement(up) && !HEADING_TAGS.has(up.name) && !BLOCK_TAGS.has(up.name)) up = up.parent;
  if (!up || !isElement(up) || !HEADING_TAGS.has(up.name)) return false;
  const all = headingText(up);
  // Counted up to just past the heading's text: a button holding less is beside other text.
  const own = visibleTextLength(el, all + 1);
  return own > 0 && own === all;
}

/** MathJax 2 keeps each formula's TeX in a `<script type="math/tex">`: content, not code. */
function isMathScript(el: Element): boolean {
  return el.name === "script" && /^math\/tex/i.test(el.attribs.type ?? "");
}

const CONTENT_AREA = new Set(["article", "main"]);
const TITLE_TAGS = new Set(["h1"]);

/**
 * `<noscript>` usually says "enable JavaScript" or repeats a lazy image, but
 * some sites (forum software among them) serve their whole content in it for
 * clients without scripts, which is what an extractor is.
 */
function isEmptyNoscript(el: Element): boolean {
  return el.name === "noscript" && visibleTextLength(el, NOSCRIPT_CONTENT) < NOSCRIPT_CONTENT;
}

const NOSCRIPT_CONTENT = 200;

/** True when a descendant is a tab panel holding a paragraph. */
function holdsTabPanel(root: Element): boolean {
  return someDescendant(root, (el) => isTabPanel(el) && hasDescendant(el, PARAGRAPH));
}

const PARAGRAPH = new Set(["p"]);

/**
 * Share of the page's text above which an element named like a widget is the
 * page's content after all: a small page wrapped in `flex-nav-expanded` or a
 * tab panel named `main-nav-products-content` is not a menu.
 */
const JUNK_SHARE = 0.4;

/**
 * Whether `el` is boilerplate. `inPanel`: inside a tab panel. `inSection`: inside a panel kept as a
 * section of the page, whose parts carry its name ("details-modal__title"): a part named for the
 * panel alone is the section's. `sections` collects the panels kept as sections.
 */
function isJunk(
  el: Element,
  insideContent: boolean,
  pageText: number,
  inPanel = false,
  inSection = false,
  sections?: Set<Element>,
): boolean {
  const a = el.attribs;
  const role = a.role;
  if (el.name === "a" && a.href !== undefined) {
    const href = a.href.trim();
    if (SHARE_HREF.test(href) || isPermalink(el, href) || isControlLink(el, href)) return true;
  } else if (role === "button" && isControl(el) && !isDisclosure(el)) return true;
  if (role && CHROME_ROLES.has(role)) return true;
  const name = el.name;
  if (
    !insideContent &&
    (name === "header" || name === "footer" || role === "banner" || role === "contentinfo")
  ) {
    return !hasDescendant(el, TITLE_TAGS);
  }
  if (
    name === "form" &&
    (role === "search" || /search/i.test(a.action ?? "") || /search/i.test(a.class ?? ""))
  ) {
    return true;
  }
  if (name === "body" || name === "html" || name === "main" || name === "article") return false;
  const words = nameWords(el);
  if (words.length < 2) return false;
  if (JUNK_WORDS.test(words) || CONSENT.test(words)) {
    // A cookie dialog is consent however long it describes each kind of cookie: named for both, with its switches.
    if (CONSENT.test(words) && CONSENT_DIALOG.test(words) && hasDescendant(el, DIALOG_CONTROLS)) return true;
    const limit = Math.min(GUARD_TEXT, Math.max(JUNK_SHARE * pageText, 1));
    const big = visibleTextLength(el, limit) >= limit;
    // Too big to be a widget: every check below answers no for it, and only a panel read as a
    // section needs them (nested big boxes each searched all of themselves for tab panels).
    if (big && !(insideContent && isPanelSection(el, words))) return false;
    // A chapter's table of contents, listing its pages, is what the chapter page says.
    if (TOC_WORD.test(words) && listsOtherPages(el)) return false;
    // Tabs of sections ("filter-menu-tabs") are the page's content, each panel a section.
    if (
      !CONSENT.test(words) &&
      (inPanel || isTabPanel(el) ? hasDescendant(el, PARAGRAPH) : holdsTabPanel(el))
    )
      return false;
    if (inSection && !JUNK_WORDS.test(words.replace(PANEL_WORDS, " "))) return false;
    // A panel kept as a section, whatever its size, is read with its parts ("details-modal__title").
    if (insideContent && isPanelSection(el, words)) {
      sections?.add(el);
      return false;
    }
    if (big) return false;
    if (opensOverlay(el, words)) return false;
    // A "social" box holding a post embedded in the text (a tweet) is that post, not share buttons.
    return !someDescendant(el, isEmbeddedPost);
  }
  if (!insideContent && HEADER_FOOTER_WORDS.test(words)) {
    return !hasDescendant(el, TITLE_TAGS) && visibleTextLength(el, CHROME_GUARD_TEXT) < CHROME_GUARD_TEXT;
  }
  return false;
}

/**
 * Removes boilerplate in place and keeps every content section: scripts,
 * styles and embedded junk; hidden elements; site navigation; header and
 * footer chrome outside the page's article/main area; cookie and consent
 * banners, ads, share widgets, popups, search forms and hover cards inside
 * paragraphs (hover-cards.ts). Comments are dropped
 * too. Used by both modes; main-content selection works on what is left.
 */
export function cleanTree(root: Element, pageText = visibleTextLength(root)): void {
  // Ids of the page's drop-down lists, for their labels ("Sort by:"): read on the first label met.
  // Read once, on the first label met: the drop-downs' ids, and the labels holding one (found by
  // climbing from each drop-down, each ancestor once, not by searching each of nested labels).
  let selects: { ids: Set<string>; labels: Set<Element> } | null = null;
  const labelsSelect = (label: Element): boolean => {
    if (!selects) {
      const ids = new Set<string>();
      const labels = new Set<Element>();
      const climbed = new Set<Element>();
      forEachElement(root, (el) => {
        if (el.name !== "select") return;
        if (el.attribs.id) ids.add(el.attribs.id);
        for (let up = el.parent; up && isElement(up) && !climbed.has(up); up = up.parent) {
          climbed.add(up);
          if (up.name === "label") labels.add(up);
        }
      });
      selects = { ids, labels };
    }
    if (selects.labels.has(label)) return true;
    const target = label.attribs.for;
    return target !== undefined && selects.ids.has(target);
  };
  // A heading's text, read once however many buttons it holds (isHeadingTrigger).
  const headingTexts = new Map<Element, number>();
  const headingText = (heading: Element): number => {
    let n = headingTexts.get(heading);
    if (n === undefined) {
      n = visibleTextLength(heading);
      headingTexts.set(heading, n);
    }
    return n;
  };
  // Newsletter sign-up forms, judged before their inputs go, removed after the walk (with their box, an ancestor).
  const forms: Element[] = [];
  // Class names inside code are a highlighter's token names ("token comment", "nav"), not page chrome.
  // Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
  // Panels (drawers, modals) kept as sections of the page: their parts are read as theirs.
  const sections = new Set<Element>();
  const visit = (
    el: Element,
    insideContent: boolean,
    inCode: boolean,
    inPanel: boolean,
    inSection: boolean,
  ): void => {
    // Removed children leave the sibling links at once and the array in one pass at the end: a
    // parent of 100,000 scripts or comments costs one pass, not one search of its children each.
    const children = el.children;
    let removed = 0;
    const drop = (node: AnyNode): void => {
      unlinkSiblings(node);
      removed++;
    };
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.type === "comment" || child.type === "directive" || child.type === "cdata") {
        drop(child);
        continue;
      }
      if (!isElement(child)) {
        // Zero-width characters alone draw nothing: the text is its whitespace, or empty.
        if (child.type === "text") emptyInvisibleText(child);
        continue;
      }
      // The trigger's text stays as the heading's (a span: no control, no tile of its own).
      if (isHeadingTrigger(child, headingText)) child.name = "span";
      // A pull quote drawn as a share link ("Click To Tweet") is the article's sentence.
      else if (child.name === "a" && !inCode) quoteSharedSentence(child);
      if (
        (DROP_TAGS.has(child.name) && !isMathScript(child) && !isTaskBox(child)) ||
        isHiddenChrome(child) ||
        (!inCode && isJunk(child, insideContent, pageText, inPanel, inSection, sections)) ||
        (child.name === "label" && labelsSelect(child)) ||
        (child.name === "img" && (isPixel(child) || isIconBesideText(child))) ||
        isEmptyNoscript(child) ||
        (!inCode &&
          (isMachineText(child) ||
            isAdLabel(child) ||
            isSlideCount(child) ||
            isVersionPicker(child) ||
            isScriptNotice(child, pageText) ||
            (!insideContent && isConsentNotice(child, pageText))))
      ) {
        drop(child);
        continue;
      }
      if (child.name === "video" || child.name === "audio") dropMediaFallback(child);
      if (child.name === "p" && !inCode) dropHoverCards(child);
      else if (child.name === "form" && isSignupForm(child)) forms.push(child);
      const role = child.attribs.role;
      visit(
        child,
        insideContent || CONTENT_AREA.has(child.name) || role === "main" || role === "article",
        inCode || child.name === "pre" || child.name === "code",
        inPanel || isTabPanel(child),
        inSection || sections.has(child),
      );
      if (!inCode) dropTickerCopies(child);
    }
    if (removed) el.children = children.filter((node) => node.parent === el);
  };
  visit(root, false, false, false, false);
  dropSignupBoxes(root, forms);
}
