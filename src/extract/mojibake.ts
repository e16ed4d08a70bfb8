import { type AnyNode, isElement, type ParentNode } from "./nodes.ts";

/**
 * UTF-8 read as Windows-1252 or Latin-1 ("mojibake"): a page whose text was
 * encoded twice shows "computerâ€™s" for "computer's" and "Â " for a
 * non-breaking space, in a browser as here. Each such sequence is the bytes
 * of one character: re-encoded they decode, strictly, as UTF-8.
 *
 * Written here rather than taken from a library: the npm ports of Python's
 * ftfy either only know Latin letters and normalise the rest of the text
 * (fix-utf8), or load a 5 MB module in 240 ms and straighten curly quotes by
 * default (ftfy-js); this is the one transform, on the platform's own
 * TextDecoder.
 */

/** Windows-1252's characters for bytes 0x80-0x9F (the rest of 0x80-0xFF is Latin-1, the same code point). */
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
const BYTE_OF = new Map<string, number>();
for (let i = 0; i < 32; i++) BYTE_OF.set(CP1252_HIGH[i]!, 0x80 + i);
// Read as Latin-1 instead, bytes 0x80-0x9F are control characters of the same code point.
for (let b = 0x80; b <= 0xff; b++) BYTE_OF.set(String.fromCharCode(b), b);

/** A continuation byte (0x80-0xBF) as Windows-1252 shows it. */
const CONT = `[\\u0080-\\u00bf${CP1252_HIGH.slice(0, 32)}]`;
/**
 * A UTF-8 lead byte (Â-ß for two bytes, à-ï for three) shown as Windows-1252, then its
 * continuation bytes. Four-byte sequences (emoji) are left alone: their lead ð is a letter of
 * Icelandic and Faroese text.
 */
const SEQUENCE = new RegExp(`[\\u00c2-\\u00df]${CONT}|[\\u00e0-\\u00ef]${CONT}{2}`, "g");
/** A page may hold mojibake: a lead byte's character right before a continuation byte's. */
const MAY_HOLD = new RegExp(`[\\u00c2-\\u00ef]${CONT}`);

const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * What a sequence may decode to and still be taken for mojibake: Latin letters and symbols,
 * general punctuation (dashes, quotes, ellipsis), currency and letterlike signs (€, ™). Another
 * script (Cyrillic Ӓ from "Ó’") is more likely the text itself.
 */
function isLikelyOriginal(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return (c >= 0xa0 && c <= 0x24f) || (c >= 0x2000 && c <= 0x214f);
}

/** `text` with each mojibake sequence decoded; the same string when there is none. */
export function repairMojibake(text: string): string {
  if (!MAY_HOLD.test(text)) return text;
  return text.replace(SEQUENCE, (seq) => {
    const bytes = new Uint8Array(seq.length);
    for (let i = 0; i < seq.length; i++) {
      const b = BYTE_OF.get(seq[i]!);
      if (b === undefined) return seq;
      bytes[i] = b;
    }
    try {
      const ch = strict.decode(bytes);
      return isLikelyOriginal(ch) ? ch : seq;
    } catch {
      return seq;
    }
  });
}

/** Whether a text may hold mojibake (a cheap test before repairing it; marks.ts reads the page's texts with it). */
export function mayHoldMojibake(text: string): boolean {
  return MAY_HOLD.test(text);
}

/** Attributes whose words the output shows: an image's description, a link's title. */
const SHOWN_ATTRIBUTES = ["alt", "title"] as const;

/** Repairs the mojibake of every text node under `root` and of the attributes it shows, scripts and styles left alone. */
export function repairMojibakeIn(root: AnyNode): void {
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "text") node.data = repairMojibake(node.data);
    else if (node.type === "root" || (isElement(node) && node.type === "tag")) {
      if (isElement(node))
        for (const name of SHOWN_ATTRIBUTES) {
          const value = node.attribs[name];
          if (value !== undefined) node.attribs[name] = repairMojibake(value);
        }
      for (const child of (node as ParentNode).children) stack.push(child);
    }
  }
}
