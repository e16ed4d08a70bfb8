import { type Element, HEADING_TAGS, removeNode, smallTextOf, textOf, visibleTextLength } from "./nodes.ts";

/** Short elements that stand in for something a saved page does not hold: an ad, a script's widget, a consent banner. */

/** Elements whose text is data: a label or an identifier in one is the data, not a widget. */
export const DATA_CELLS = new Set(["td", "th", "code", "kbd", "samp"]);

/** The text of `el`'s own text children, its elements' left out: what a notice says of itself. */
function ownText(el: Element): string {
  let own = "";
  for (const child of el.children) if (child.type === "text") own += child.data;
  return own;
}

/**
 * The label of an ad slot whose ad is not in the saved page ("Advertisement",
 * "Anzeige", "Publicité"): an element whose whole text is such a label and
 * that does not sit inside a sentence. A heading or a table cell so named is
 * the page's subject, not a slot.
 */
export function isAdLabel(el: Element): boolean {
  return isLoneLabel(el, AD_LABEL);
}

/**
 * A gallery's counter of its slides ("Image 1 of 5", "Photo 3/12", "Foto 2 de 8"): the gallery's
 * control, which says nothing of the pictures. An element whose whole text is such a counter, not
 * inside a sentence, and not a heading or a table cell.
 */
export function isSlideCount(el: Element): boolean {
  return isLoneLabel(el, SLIDE_COUNT);
}

/** An element whose only child is text that `label` matches, in no sentence, and no heading or data cell. */
function isLoneLabel(el: Element, label: RegExp): boolean {
  if (DATA_CELLS.has(el.name) || HEADING_TAGS.has(el.name) || el.children.length !== 1) return false;
  const only = el.children[0]!;
  if (only.type !== "text" || !label.test(only.data)) return false;
  for (const sib of el.parent?.children ?? []) if (sib.type === "text" && sib.data.trim()) return false;
  return true;
}

const SLIDE_COUNT =
  /^\s*(?:image|photo|picture|slide|pic|foto|bild|imagen|immagine|afbeelding|фото|изображение)\s*\d+\s*(?:of|\/|de|von|di|van|из)\s*\d+\s*$/iu;

const AD_LABEL =
  /^\s*(?:-\s*)?(?:advertisement|advert|anzeige|werbung|publicidad|publicidade|publicité|pubblicità|advertentie|reklama|reklame|reklam|реклама|annonse|annons|mainos|iklan|quảng cáo|διαφήμιση|פרסומת|إعلان|विज्ञापन|โฆษณา|広告|광고|广告)(?:\s*-)?\s*$/i;

/**
 * A notice that the page needs JavaScript ("This slideshow requires
 * JavaScript.", "Please enable JavaScript to view the comments"): what
 * stands in for a script's widget in a saved page, never the page's text.
 * Only a short element (up to 100 characters) whose own text says so, on a
 * page with more to it: a longer text about scripts is the page's own.
 */
export function isScriptNotice(el: Element, pageText: number): boolean {
  if (el.children.length > 3 || !SCRIPT_NOTICE_TAGS.has(el.name)) return false;
  if (!JAVASCRIPT.test(ownText(el))) return false;
  // A notice is a few nodes: a bigger element is read no further (nested ones each walked it all).
  const text = smallTextOf(el, SCRIPT_NOTICE_NODES);
  return (
    text !== null &&
    text.length <= SCRIPT_NOTICE_MAX &&
    text.length * 4 < pageText &&
    SCRIPT_NOTICE.test(text)
  );
}

const SCRIPT_NOTICE_NODES = 32;

const SCRIPT_NOTICE_TAGS = new Set(["p", "div", "span", "small", "em", "strong", "center"]);
const JAVASCRIPT = /javascript/i;
const SCRIPT_NOTICE_MAX = 100;
const SCRIPT_NOTICE =
  /\b(?:requires?|needs?|enable|turn on|activate|support|supports)\b.{0,40}\bjavascript\b|\bjavascript\b.{0,30}\b(?:is )?(?:required|disabled|turned off|not enabled|must be enabled)\b/i;

/**
 * A cookie consent banner named by no class siphon knows ("penci-gprd-law", "eupopup",
 * "pea_cook_wrapper"): a short element outside the article whose own text names cookies and
 * whose text says the site uses them or asks to accept them ("This website uses cookies to improve your experience.
 * We'll assume you're ok with this"). Under 400 visible characters and a quarter of the page,
 * so that a text about cookies (a framework's sessions, a law on consent) stays.
 */
export function isConsentNotice(el: Element, pageText: number): boolean {
  if (!CONSENT_NOTICE_TAGS.has(el.name)) return false;
  // Its own text names the cookies: the whole text is read only then (a deep page has many wrappers).
  if (!COOKIES.test(ownText(el))) return false;
  const visible = visibleTextLength(el, CONSENT_NOTICE_MAX);
  if (visible >= CONSENT_NOTICE_MAX || visible * 4 >= pageText) return false;
  const text = textOf(el);
  return (USES_COOKIES.test(text) || ASKS_CONSENT.test(text)) && COOKIE_PURPOSE.test(text);
}

const CONSENT_NOTICE_TAGS = new Set(["p", "div", "span", "small", "section", "aside"]);
const CONSENT_NOTICE_MAX = 400;
const COOKIES = /\bcookies?\b/i;
/** "This website uses cookies", "We use cookies", "this site is using essential cookies". */
const USES_COOKIES =
  /\b(?:we|site|website|page)\b[^.]{0,30}\b(?:use|uses|using)\b(?:\s+[\w-]+){0,2}\s+cookies\b/i;
/** What a banner says cookies are for, or asks of the reader: a recipe's "we use cookies" says neither. */
const COOKIE_PURPOSE =
  /\b(?:experience|improve|analy[sz]e|analytics|traffic|personali[sz]e|functionality|advertising|ads|privacy|policy|consent|accept|agree|opt[- ]out|settings|preferences|browsing)\b/i;
/**
 * The reader asked to agree: "you consent to the use of cookies", "By using our site, you agree
 * to our cookie use", "If you continue using our website, ... you are happy to receive all
 * cookies". In the second person, as a banner speaks: a text about consent tools does not.
 */
const ASKS_CONSENT =
  /\byou(?:'re|\s+are)?\b[^.]{0,40}\b(?:consent|accept|agree|continue|happy|ok|okay)\b[^.]{0,120}\bcookies?\b|\bcookies?\b[^.]{0,120}\byou(?:'re|\s+are)?\b[^.]{0,40}\b(?:consent|accept|agree|happy|ok|okay)\b/i;

/** What a video or audio element holds besides its sources and tracks: what a browser shows without one. */
const MEDIA_PARTS = new Set(["source", "track"]);

/** Text above which a video's fallback describes the video (what it shows), not the browser. */
const FALLBACK_NOTICE_MAX = 120;

/**
 * Empties a `<video>` or `<audio>` of its fallback notice ("Your browser does not support the video
 * tag.", a download link for browsers without one): every browser a reader has plays the element,
 * so it shows the player and never the notice. Its sources and tracks stay, and so does a longer
 * fallback, which describes what the video shows ("Data visualization of predicted wheat and
 * maize yields through the end of this century...").
 */
export function dropMediaFallback(media: Element): void {
  const fallback = media.children.filter(
    (child) => !(child.type === "tag" && MEDIA_PARTS.has((child as Element).name)),
  );
  if (
    fallback.reduce((n, child) => n + visibleTextLength(child, FALLBACK_NOTICE_MAX), 0) > FALLBACK_NOTICE_MAX
  )
    return;
  for (const child of fallback) removeNode(child);
}
