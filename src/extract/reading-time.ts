import { BLOCK_TAGS, type Element, forEachElement, isElement, removeNode, smallTextOf } from "./nodes.ts";

/**
 * A story's reading-time estimate as a line of its own: "6 min read", "5-minute read", "Reading
 * time: 3 minutes", and the same in Portuguese, Spanish, French, German, Italian, Dutch and
 * Russian ("Tempo de leitura: 2 minutos", "Lesezeit: 4 Min."). A sentence that mentions minutes
 * of reading says more than this.
 */
const READING_TIME = new RegExp(
  [
    String.raw`^(?:~\s*|about\s+)?\d+(?:\s*[-–]\s*\d+)?[\s-]*(?:min|mins|minutes?)\.?\s+read(?:ing)?(?:\s+time)?$`,
    String.raw`^(?:(?:estimated\s+)?(?:reading|read)\s+time|tempo de leitura|tiempo de lectura|temps de lecture|lesezeit|tempo di lettura|leestijd|время чтения)\s*:?\s*(?:~\s*|about\s+)?\d+(?:\s*[-–]\s*\d+)?\s*(?:min|mins|minutes?|minutos?|minuti|minuten|minuto|мин|минут[аы]?)\.?$`,
  ].join("|"),
  "iu",
);
/** Nodes read of an element for its text: an estimate is a few words in a few tags. */
const LINE_NODES = 12;

/** `el`'s text when it is a short line, else null. */
function lineOf(el: Element): string | null {
  return smallTextOf(el, LINE_NODES);
}

/**
 * Drops the lines of `root` that only estimate its reading time: metadata like a byline, which
 * readers of the text skip. The line goes as the block it fills (a paragraph, a div); an estimate
 * inside a line of other words (a byline's "· 6 min read") stays with them.
 */
export function dropReadingTimes(root: Element): void {
  const doomed: Element[] = [];
  forEachElement(root, (el) => {
    if (el === root) return;
    const text = lineOf(el);
    if (text === null || !READING_TIME.test(text)) return;
    const parent = el.parent;
    const inner = !!parent && isElement(parent) && parent !== root;
    // A parent holding just these words goes instead (it was seen first).
    if (inner && lineOf(parent) === text) return;
    if (BLOCK_TAGS.has(el.name) || !inner) doomed.push(el);
  });
  for (const el of doomed) removeNode(el);
}
