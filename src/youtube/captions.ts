/** One caption cue: its text and when it is shown, in seconds. */
export interface Segment {
  text: string;
  start: number;
  duration: number;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** `text` with its character references decoded once (named, decimal and hex). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    const e = entity.toLowerCase();
    if (!e.startsWith("#")) return NAMED[e] ?? whole;
    const code = e.startsWith("#x") ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

/** Formatting tags caption authors write (<i>, <b>, <font color>); they style text, they are not words. */
const FORMATTING = /<\/?(?:b|i|u|s|em|strong|mark|small|del|ins|sub|sup|font|c)\b[^>]*>/gi;

/** A cue's text as read: formatting tags dropped, line breaks and runs of spaces made one space. */
const tidy = (text: string) => text.replace(FORMATTING, "").replace(/\s+/g, " ").trim();

/** Seconds, to the millisecond. */
const seconds = (value: number) => Math.round(value * 1000) / 1000;

function attribute(attributes: string, name: string): number {
  const found = new RegExp(`\\b${name}="([^"]*)"`).exec(attributes);
  const value = found ? Number(found[1]) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * Text of an XML element's content: the XML layer's references decoded, tags (<font>, <s>)
 * dropped, then decoded once more, because YouTube escapes the caption text itself as HTML
 * before writing it into XML ("&amp;#39;" is an apostrophe).
 */
function xmlText(content: string): string {
  return tidy(decodeEntities(decodeEntities(content).replace(/<[^>]*>/g, "")));
}

/** timedtext's default XML: `<transcript><text start="s" dur="s">…</text></transcript>`. */
function fromTranscriptXml(body: string): Segment[] {
  const out: Segment[] = [];
  for (const [, attributes = "", content = ""] of body.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
    const text = xmlText(content);
    if (text) {
      out.push({
        text,
        start: seconds(attribute(attributes, "start")),
        duration: seconds(attribute(attributes, "dur")),
      });
    }
  }
  return out;
}

/** timedtext's format 3 (srv3): `<timedtext format="3"><body><p t="ms" d="ms">…</p>`. */
function fromFormat3(body: string): Segment[] {
  const out: Segment[] = [];
  for (const [, attributes = "", content = ""] of body.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)) {
    const text = xmlText(content);
    if (text) {
      out.push({
        text,
        start: seconds(attribute(attributes, "t") / 1000),
        duration: seconds(attribute(attributes, "d") / 1000),
      });
    }
  }
  return out;
}

interface Json3 {
  events?: { tStartMs?: number; dDurationMs?: number; segs?: { utf8?: string }[] }[];
}

/** timedtext's json3: `events[] {tStartMs, dDurationMs, segs[{utf8}]}`; events without segs only lay out windows. */
function fromJson3(body: string): Segment[] {
  let parsed: Json3;
  try {
    parsed = JSON.parse(body) as Json3;
  } catch {
    return [];
  }
  const out: Segment[] = [];
  for (const event of Array.isArray(parsed?.events) ? parsed.events : []) {
    if (!Array.isArray(event?.segs)) continue;
    const text = tidy(event.segs.map((seg) => (typeof seg?.utf8 === "string" ? seg.utf8 : "")).join(""));
    if (!text) continue;
    const start = typeof event.tStartMs === "number" && event.tStartMs >= 0 ? event.tStartMs : 0;
    const duration = typeof event.dDurationMs === "number" && event.dDurationMs >= 0 ? event.dDurationMs : 0;
    out.push({ text, start: seconds(start / 1000), duration: seconds(duration / 1000) });
  }
  return out;
}

/**
 * The cues of a timedtext answer, whichever of its formats it is in (json3, the default XML
 * transcript, or format 3), in time order. An empty or unrecognised body has none.
 */
export function parseCaptions(body: string): Segment[] {
  const head = body.trimStart();
  let segments: Segment[];
  if (head.startsWith("{")) segments = fromJson3(head);
  else if (/<transcript[\s>]/.test(head)) segments = fromTranscriptXml(head);
  else if (/<timedtext[\s>]/.test(head)) segments = fromFormat3(head);
  else segments = [];
  return segments.sort((a, b) => a.start - b.start);
}

/** A transcript as one text: the cues in order, joined by spaces. */
export function joinSegments(segments: readonly Segment[]): string {
  return segments.map((s) => s.text).join(" ");
}
