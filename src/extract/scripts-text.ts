import { type Element, isElement } from "./nodes.ts";

const SUPERSCRIPT: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
  "+": "⁺",
  "-": "⁻",
  "\u2212": "⁻",
  "=": "⁼",
  "(": "⁽",
  ")": "⁾",
  n: "ⁿ",
  i: "ⁱ",
};
const SUBSCRIPT: Record<string, string> = {
  "0": "₀",
  "1": "₁",
  "2": "₂",
  "3": "₃",
  "4": "₄",
  "5": "₅",
  "6": "₆",
  "7": "₇",
  "8": "₈",
  "9": "₉",
  "+": "₊",
  "-": "₋",
  "\u2212": "₋",
  "=": "₌",
  "(": "₍",
  ")": "₎",
};

/**
 * A superscript or subscript of digits and signs as Unicode's own characters
 * draw it ("x<sup>2</sup>" is "x²", "10<sup>-3</sup>" "10⁻³", "H<sub>2</sub>O"
 * "H₂O"): as plain text they ran into the text beside them ("x2", "10-3",
 * "H2O"), and so did a note's mark linked within the page ("day5"). Null
 * for anything else (a script of words such as "1<sup>st</sup>" or
 * "<sup>TM</sup>"), which is shown as it is; a footnote the content holds is
 * shown as one (notation.ts).
 */
export function drawnScript(el: Element): string | null {
  const table = el.name === "sup" ? SUPERSCRIPT : el.name === "sub" ? SUBSCRIPT : null;
  if (!table || el.children.length !== 1) return null;
  let only = el.children[0]!;
  // A link within the page around the mark (to a note the content does not hold): markdown and
  // text show its words only, so the mark is drawn as the reader sees it.
  if (
    isElement(only) &&
    only.name === "a" &&
    only.attribs.href?.startsWith("#") &&
    only.children.length === 1
  )
    only = only.children[0]!;
  if (only.type !== "text") return null;
  const raw = only.data.trim();
  if (!raw || raw.length > MAX_SCRIPT) return null;
  let drawn = "";
  for (const ch of raw) {
    const mapped = table[ch];
    if (mapped === undefined) return null;
    drawn += mapped;
  }
  return drawn;
}

/** Characters up to which a script is an exponent, an index or a mark, not a run of text set small. */
const MAX_SCRIPT = 8;
