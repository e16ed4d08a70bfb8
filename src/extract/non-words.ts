import { RATING_STARS, WORD_CHAR } from "./hidden.ts";
import { type Element, nameWords, smallTextOf, type Text } from "./nodes.ts";
import { DATA_CELLS } from "./notices.ts";

/**
 * Text that is not words for a reader, judged element by element while cleaning (clean.ts): an
 * icon font's icon name, an icon drawn as one character, a bare UUID, a JSON document a script
 * reads; and characters that take no room standing alone.
 */

/**
 * An icon font draws a name as its picture (Material's `<i class="material-icons">chevron_right</i>`,
 * `material-symbols-rounded`, Angular's `<mat-icon>home</mat-icon>`): the name is no word of the page.
 */
const ICON_FONT = /(?:^|\s)(?:material-icons|material-symbols|google-symbols)(?:-[a-z]+)?(?:$|\s)/;
const ICON_NAME = /^\s*[a-z][a-z0-9_]*\s*$/;

function isIconName(el: Element): boolean {
  if (el.name !== "mat-icon" && !ICON_FONT.test(el.attribs.class ?? "")) return false;
  const text = smallTextOf(el, ICON_NODES);
  return text !== null && ICON_NAME.test(text);
}

/** Nodes an icon holds at most: its text, a wrapper or two, a drawing's shapes. */
const ICON_NODES = 32;

/** An element named as an icon ("button-icon", "accordion-icon", "icon-plus"). */
const ICON_WORD = /(?:^|[\s_-])icons?(?:$|[\s_-])/;
/** Characters (UTF-16 units) up to which an icon's text is one glyph: an arrow, a "+", an emoji with its modifiers. */
const GLYPH = 4;

/** A currency sign: part of the price beside it, whatever its element is named. */
const CURRENCY = /\p{Sc}/u;

/**
 * An icon drawn as a character (`<div class="button-icon cc-arrow-right">→</div>`, an
 * accordion's "+", a close button's "×"): a picture of a control, not a word of the page.
 * Not a rating's stars or a currency sign, and not in code or a table cell, where a symbol is data.
 */
function isIconGlyph(el: Element): boolean {
  if (DATA_CELLS.has(el.name) || !ICON_WORD.test(nameWords(el))) return false;
  const text = smallTextOf(el, ICON_NODES);
  return (
    text !== null &&
    text !== "" &&
    text.replace(/\s/g, "").length <= GLYPH &&
    !WORD_CHAR.test(text) &&
    !RATING_STARS.test(text) &&
    !CURRENCY.test(text)
  );
}

/** Characters that take no room: zero-width space, non-joiner and joiner, word joiner, byte-order mark. */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;
/** Text made of those and whitespace only (a site builder's `<p>&zwj;</p>` spacer). */
const INVISIBLE_TEXT = /^[\s\u200b-\u200d\u2060\ufeff]+$/;

const UUID = /^\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/i;

/**
 * A span or block whose whole text is a UUID: a machine identifier that
 * scripts read or that scrambles scraped text (interleaved with the real
 * letters and hidden by the stylesheet), never words for a reader. Not in a
 * table cell or code, where an identifier is data a reader looks up.
 */
function isBareIdentifier(el: Element): boolean {
  if (DATA_CELLS.has(el.name) || el.children.length !== 1) return false;
  const only = el.children[0]!;
  return only.type === "text" && UUID.test(only.data);
}

/** Characters from which a JSON document as an element's whole text is a script's data, not an example in a sentence. */
const DATA_DUMP = 80;
/** Elements whose text is shown as written: JSON there is an example for the reader. */
const LITERAL_TAGS = new Set([...DATA_CELLS, "pre", "tt", "var", "output"]);

/**
 * A block whose whole text is a JSON object (or a list of objects): data a
 * script reads from the page, kept in an element the stylesheet hides (a
 * shop's prices and offer ids in `<div class="aok-hidden">`), never text for
 * a reader. Not in code, a table cell or preformatted text, and not a short
 * one, which a sentence may show as an example.
 */
function isDataDump(el: Element): boolean {
  if (LITERAL_TAGS.has(el.name) || el.children.length !== 1) return false;
  const only = el.children[0]!;
  if (only.type !== "text") return false;
  const text = only.data.trim();
  if (text.length < DATA_DUMP) return false;
  const first = text[0];
  const last = text[text.length - 1];
  if (!((first === "{" && last === "}") || (first === "[" && last === "]"))) return false;
  try {
    const value: unknown = JSON.parse(text);
    const objects = Array.isArray(value) ? value : [value];
    return objects.length > 0 && objects.every((v) => v !== null && typeof v === "object");
  } catch {
    return false;
  }
}

/** Whether `el`'s whole text is machine text, not words: an icon, a bare identifier, script data. */
export function isMachineText(el: Element): boolean {
  return isBareIdentifier(el) || isDataDump(el) || isIconName(el) || isIconGlyph(el);
}

/** Empties a text made only of characters that take no room (a site builder's `<p>&zwj;</p>` spacer), keeping its whitespace. */
export function emptyInvisibleText(node: Text): void {
  if (INVISIBLE_TEXT.test(node.data)) node.data = node.data.replace(ZERO_WIDTH, "");
}
