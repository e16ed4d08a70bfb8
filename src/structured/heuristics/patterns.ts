import type { Data, Found } from "./types.ts";

/**
 * Values recognised in running text: prices, dates, emails, phone numbers, durations and
 * "Label: value" lines. Everything here is a guess from the words alone, the last resort of
 * schema filling after every structured signal.
 */

/** Currency symbols and the ISO 4217 code each stands for (the first reading of ambiguous ones). */
const SYMBOLS: Record<string, string> = {
  US$: "USD",
  A$: "AUD",
  C$: "CAD",
  NZ$: "NZD",
  HK$: "HKD",
  S$: "SGD",
  R$: "BRL",
  $: "USD",
  "€": "EUR",
  "£": "GBP",
  "¥": "JPY",
  "₹": "INR",
  "₽": "RUB",
  "₩": "KRW",
  "₺": "TRY",
  "₪": "ILS",
  "₫": "VND",
  "฿": "THB",
  zł: "PLN",
  Kč: "CZK",
  Fr: "CHF",
  kr: "SEK",
};
const CODES = [
  "EUR",
  "USD",
  "GBP",
  "JPY",
  "CHF",
  "SEK",
  "NOK",
  "DKK",
  "PLN",
  "CZK",
  "HUF",
  "AUD",
  "CAD",
  "NZD",
  "CNY",
  "INR",
  "BRL",
  "MXN",
  "ZAR",
  "RUB",
  "TRY",
  "KRW",
  "SGD",
  "HKD",
  "ILS",
];
const escapeRe = (s: string) => s.replace(/[$.*+?^()[\]{}|\\]/g, "\\$&");
const SYMBOL_RE = Object.keys(SYMBOLS)
  .sort((a, b) => b.length - a.length)
  .map((s) => (/^[a-zA-Z]/.test(s) ? `${escapeRe(s)}\\.?(?![a-zA-Z])` : escapeRe(s)))
  .join("|");
const CODE_RE = `\\b(?:${CODES.join("|")})\\b`;
/** 1.234,56 · 1,234.56 · 1 234,56 · 39.95 · 49,- · 12 */
const AMOUNT_RE = `\\d{1,3}(?:[.,\\u00a0\\u202f' ]\\d{3})+(?:[.,]\\d{1,2})?(?:[.,][-–])?|\\d+(?:[.,]\\d{1,2})?(?:[.,][-–])?`;
const PRICE_RE = new RegExp(
  `(?<cur1>${CODE_RE}|${SYMBOL_RE})\\s?(?<amt1>${AMOUNT_RE})(?![\\d%])|(?<![\\w.,])(?<amt2>${AMOUNT_RE})\\s?(?<cur2>${CODE_RE}|${SYMBOL_RE})`,
  "g",
);
/** Words before a price that say it is no longer the price. */
const FORMER_PRICE = /\b(?:was|statt|uvp|rrp|msrp|vorher|avant|antes|prima|list price)\s*:?\s*$/i;

/** A number as written with either decimal mark: "1.234,56" -> 1234.56, "1,299.00" -> 1299, "49,-" -> 49. */
export function parseAmount(text: string): number | null {
  let s = text
    .trim()
    .replace(/[\s\u00a0\u202f']/g, "")
    .replace(/[.,][-–]$/, "");
  if (!/^[+-]?\d[\d.,]*$/.test(s)) return null;
  const lastDot = s.lastIndexOf(".");
  const lastComma = s.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? "." : ",";
    const thousands = decimal === "." ? "," : ".";
    s = s.split(thousands).join("").replace(decimal, ".");
  } else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? "." : ",";
    const parts = s.split(mark);
    // One mark followed by exactly three digits is a thousands separator (12,500 or 12.500).
    const thousands = parts.length > 2 || (parts.length === 2 && parts[1]!.length === 3);
    s = thousands ? parts.join("") : parts.join(".");
  }
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** The ISO 4217 code for a symbol or code as written, or null. */
export function currencyCode(text: string): string | null {
  const t = text.trim().replace(/\.$/, "");
  if (CODES.includes(t.toUpperCase()) && /^[A-Za-z]{3}$/.test(t)) return t.toUpperCase();
  return SYMBOLS[t] ?? null;
}

export interface PriceMatch {
  amount: number;
  currency: string;
  text: string;
  /** True for a struck-through or "was" price. */
  former: boolean;
}

/** Prices with a currency, in text order. */
export function findPrices(text: string): PriceMatch[] {
  const out: PriceMatch[] = [];
  for (const m of text.matchAll(PRICE_RE)) {
    const g = m.groups!;
    const amount = parseAmount(g.amt1 ?? g.amt2 ?? "");
    const currency = currencyCode(g.cur1 ?? g.cur2 ?? "");
    if (amount === null || !currency) continue;
    const line = text.slice(text.lastIndexOf("\n", m.index) + 1, m.index);
    const before = line.slice(-24);
    // Inside ~~strikethrough~~ when an odd number of marks precede it on its line.
    const struck = (line.match(/~~/g)?.length ?? 0) % 2 === 1 || /<(?:del|s)>[^<]*$/.test(before);
    out.push({ amount, currency, text: m[0].trim(), former: struck || FORMER_PRICE.test(before) });
  }
  return out;
}

const MONTHS: Record<string, number> = {};
for (const [i, names] of [
  "january jan januar janvier enero gennaio januari janeiro jänner",
  "february feb februar février fevrier febrero febbraio februari fevereiro",
  "march mar märz maerz mars marzo maart março",
  "april apr avril abril aprile",
  "may mai mayo maggio mei maio",
  "june jun juni juin junio giugno junho",
  "july jul juli juillet julio luglio julho",
  "august aug août aout agosto augustus",
  "september sep sept septembre septiembre settembre setembro",
  "october oct oktober octobre octubre ottobre okt outubro",
  "november nov novembre noviembre novembro",
  "december dec dezember décembre decembre diciembre dicembre dez dezembro",
].entries()) {
  for (const name of names.split(" ")) MONTHS[name] = i + 1;
}
const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join("|");
const TIME_RE = `(?:,?\\s*(?:at|um|à|a las|alle|om|kl\\.?)?\\s*(?<h>\\d{1,2})[:.h](?<min>\\d{2})\\s*(?<ampm>[ap]\\.?m\\.?)?(?:\\s*(?:uhr|h)\\b)?)?`;
const DATE_RES: RegExp[] = [
  /\b(?<y>\d{4})-(?<mo>\d{2})-(?<d>\d{2})(?:[T ](?<h>\d{2}):(?<min>\d{2})(?::(?<s>\d{2}))?(?:\.\d+)?(?<tz>Z|[+-]\d{2}:?\d{2})?)?\b/gi,
  new RegExp(
    `\\b(?<d>\\d{1,2})(?:st|nd|rd|th|\\.|º)?\\s+(?:de\\s+)?(?<mon>${MONTH_RE})\\.?,?\\s+(?:de\\s+)?(?<y>\\d{4})\\b${TIME_RE}`,
    "giu",
  ),
  new RegExp(
    `\\b(?<mon>${MONTH_RE})\\.?\\s+(?<d>\\d{1,2})(?:st|nd|rd|th)?,?\\s+(?<y>\\d{4})\\b${TIME_RE}`,
    "giu",
  ),
  new RegExp(`\\b(?<d>\\d{1,2})\\.(?<mo>\\d{1,2})\\.(?<y>\\d{4})\\b${TIME_RE}`, "gu"),
  new RegExp(`\\b(?<a>\\d{1,2})/(?<b>\\d{1,2})/(?<y>\\d{4})\\b${TIME_RE}`, "gu"),
];

export interface DateMatch {
  /** "2024-03-15", or "2024-03-15T19:30:00" with the time, and the offset when the text gave one. */
  date: string;
  text: string;
  index: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Dates as pages write them (ISO 8601, "15 March 2024", "March 15, 2024", "15. März 2024", "15.03.2024"), in text order. */
export function findDates(text: string): DateMatch[] {
  const out: DateMatch[] = [];
  const taken: [number, number][] = [];
  for (const re of DATE_RES) {
    for (const m of text.matchAll(re)) {
      const g = m.groups!;
      let month = g.mo ? Number(g.mo) : g.mon ? (MONTHS[g.mon.toLowerCase()] ?? 0) : 0;
      let day = Number(g.d ?? 0);
      if (g.a && g.b) {
        // Day first unless that cannot be (03/15/2024), as most of the world writes it.
        const [a, b] = [Number(g.a), Number(g.b)];
        [day, month] = a > 12 || b <= 12 ? [a, b] : [b, a];
      }
      const year = Number(g.y);
      if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2100) continue;
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      taken.push([start, end]);
      let date = `${year}-${pad(month)}-${pad(day)}`;
      if (g.h && g.min) {
        let hour = Number(g.h);
        if (g.ampm?.toLowerCase().startsWith("p") && hour < 12) hour += 12;
        if (g.ampm?.toLowerCase().startsWith("a") && hour === 12) hour = 0;
        if (hour < 24 && Number(g.min) < 60) {
          date += `T${pad(hour)}:${g.min}:${g.s ?? "00"}`;
          if (g.tz) date += g.tz.toUpperCase() === "Z" ? "Z" : g.tz.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
        }
      }
      out.push({ date, text: m[0].trim(), index: start });
      // "21 March 2025, 19:30 – 23:00": the range's end is the same day at the later time.
      const range = date.includes("T")
        ? /^\s*(?:[–—-]|to|bis|à)\s*(\d{1,2})[:.](\d{2})\b/.exec(text.slice(end))
        : null;
      if (range && Number(range[1]) < 24 && Number(range[2]) < 60) {
        out.push({
          date: `${date.slice(0, 11)}${pad(Number(range[1]))}:${range[2]}:00`,
          text: range[0].trim(),
          index: end,
        });
      }
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

const EMAIL_RE = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24}\b/g;

/** Email addresses, in text order, each once. */
export function findEmails(text: string): string[] {
  return [...new Set([...text.matchAll(EMAIL_RE)].map((m) => m[0].replace(/\.$/, "")))];
}

const PHONE_RE =
  /(?:\+\d{1,3}[\s.-]?(?:\(0?\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,8}){1,4}|\(\d{3}\)\s?\d{3}[\s.-]\d{4}|\b\d{3}[.-]\d{3}[.-]\d{4}\b)/g;
/** A national number ("030 1234567") counts only after a word that says it is one. */
const LABELLED_PHONE_RE =
  /\b(?:tel(?:ephone|efon|éfono|efono)?|t[ée]l|phone|call|mobile|handy|fax)\.?\s*:?\s*(0\d{1,5}(?:[\s/.-]?\d{2,8}){1,3})/gi;

/** Phone numbers: international (+49 30 1234567), North American ((555) 123-4567) and labelled national ones. */
export function findPhones(text: string): string[] {
  const out: string[] = [];
  const add = (raw: string) => {
    const phone = raw.trim().replace(/[\s.-]+$/, "");
    const digits = phone.replace(/\D/g, "").length;
    if (digits >= 7 && digits <= 15 && !out.includes(phone)) out.push(phone);
  };
  for (const m of text.matchAll(PHONE_RE)) add(m[0]);
  for (const m of text.matchAll(LABELLED_PHONE_RE)) add(m[1]!);
  return out;
}

/**
 * Minutes in a duration: ISO 8601 ("PT1H30M"), or as written ("1 hr 30 mins", "45 Min.", "2 hours");
 * null when there is none.
 */
export function durationMinutes(text: string): number | null {
  const iso =
    /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
      text.trim(),
    );
  if (iso && (iso[1] || iso[2] || iso[3] || iso[4])) {
    const [d, h, m, s] = [iso[1], iso[2], iso[3], iso[4]].map((v) => Number(v ?? 0));
    return Math.round(d! * 1440 + h! * 60 + m! + s! / 60);
  }
  let minutes = 0;
  let any = false;
  for (const m of text.matchAll(
    /(\d+(?:[.,]\d+)?)\s*(h(?:ou)?rs?|h|std|stunden?|heures?|min(?:ute)?s?|min\.?|minuten)\b/gi,
  )) {
    const n = Number(m[1]!.replace(",", "."));
    minutes += /^(h|std|stunde|heure)/i.test(m[2]!) ? n * 60 : n;
    any = true;
  }
  return any ? Math.round(minutes) : null;
}

/** "Label: value" lines (markdown emphasis and list bullets stripped), as a record. */
export function findLabels(text: string): Data {
  const labels: Data = {};
  for (const raw of text.split(/\n/)) {
    const line = raw
      .replace(/^\s*(?:[-*+•]|\d+\.)\s+/, "")
      .replace(/\*\*|__/g, "")
      .trim();
    const m = /^([\p{L}][\p{L}\s/&'-]{0,30}?)\s*:\s+(.{1,200})$/u.exec(line);
    if (!m || m[1]!.split(/\s+/).length > 4 || line.startsWith("|")) continue;
    const label = m[1]!.trim();
    if (labels[label] === undefined) labels[label] = m[2]!.trim();
  }
  return labels;
}

const IN_STOCK =
  /\b(in stock|available now|ready to ship|auf lager|sofort lieferbar|en stock|disponible|disponibile)\b/i;
const OUT_OF_STOCK =
  /\b(out of stock|sold out|currently unavailable|ausverkauft|nicht lieferbar|épuisé|rupture de stock|agotado|esaurito)\b/i;

/** Whether the text says the item can be bought: the first stock phrase it has, as a schema.org availability. */
export function findAvailability(text: string): "InStock" | "OutOfStock" | null {
  const out = OUT_OF_STOCK.exec(text);
  const inStock = IN_STOCK.exec(text);
  if (out && (!inStock || out.index < inStock.index)) return "OutOfStock";
  return inStock ? "InStock" : null;
}

const NAME_WORD = "(?:\\p{Lu}\\.|\\p{Lu}[\\p{L}'’-]+)";
const NAME = `(${NAME_WORD}(?:\\s+(?:(?:de|da|van|von|der|den|di|del|le|la|du|dos|bin|al)\\s+)*${NAME_WORD}){0,4})`;
// Case-sensitive on purpose: with the i flag \\p{Lu} would match any letter, and "By the river" is no byline.
const BYLINE_RE = new RegExp(`^(?:[Bb]y|[Vv]on|[Pp]ar|[Pp]or|[Dd]oor|[Aa]v)\\s+${NAME}`, "mu");
const ORGANIZER_RE = new RegExp(
  `\\b(?:[Pp]resented|[Oo]rgani[sz]ed|[Hh]osted|[Pp]romoted|[Bb]rought to you)\\s+by\\s+(?:the\\s+)?${NAME}`,
  "u",
);

/** The author a byline names: a line starting "By Ann Lee" (or Von, Par, Por, Door, Av). */
export function findByline(text: string): string | null {
  return BYLINE_RE.exec(plainText(text))?.[1] ?? null;
}

/** The organiser of an event: "Presented by Nordic Jazz Society", "Organised by ...". */
export function findOrganizer(text: string): string | null {
  return ORGANIZER_RE.exec(plainText(text))?.[1] ?? null;
}

const RATING_RE =
  /(?<!\d)([0-5](?:[.,]\d{1,2})?)\s*(?:(?:out of|von|sur|de|di|van|\/)\s*5(?![\d.,])|(?:stars?|sterne?n?|étoiles)\b|from\s+\d[\d,.]*\s+(?:votes|ratings|reviews))/i;
const REVIEW_COUNT_RE =
  /(?<![\d.,])(\d{1,3}(?:[.,\s]\d{3})*|\d+)\s+(?:customer\s+)?(?:reviews|ratings|votes|bewertungen|rezensionen|kundenbewertungen|avis|reseñas|valoraciones|recensioni|beoordelingen)\b/i;

/** The average rating a page prints ("4,6 von 5 Sternen", "4.8 out of 5", "4.8 from 57 votes") and how many reviews it is from. */
export function findRating(text: string): { ratingValue: number | null; reviewCount: number | null } {
  const plain = plainText(text);
  const rating = RATING_RE.exec(plain);
  const count = REVIEW_COUNT_RE.exec(plain) ?? /from\s+(\d[\d,.]*)\s+(?:votes|ratings|reviews)/i.exec(plain);
  return {
    ratingValue: rating ? parseAmount(rating[1]!) : null,
    reviewCount: count ? parseAmount(count[1]!) : null,
  };
}

/** Markdown reduced to the words a reader sees, struck-through text kept with its marks. */
export function plainText(text: string): string {
  // Filling one schema reads the same page text for several patterns: remember the last one.
  if (text !== lastPlain.text) {
    lastPlain.text = text;
    lastPlain.plain = text
      .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
      .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, "$1")
      .replace(/^#{1,6}\s+/gm, "")
      .replace(/\*\*|__/g, "");
  }
  return lastPlain.plain;
}
const lastPlain = { text: "", plain: "" };

/** Every pattern in `text` as Founds: Price, Date, Email and Phone (one per value) and Labels. */
export function findPatterns(text: string): Found[] {
  const plain = plainText(text);
  const found: Found[] = [];
  for (const p of findPrices(plain)) {
    found.push({
      type: "Price",
      data: {
        price: p.amount,
        priceCurrency: p.currency,
        text: p.text,
        ...(p.former ? { former: true } : {}),
      },
      signal: "pattern",
    });
  }
  for (const d of findDates(plain))
    found.push({ type: "Date", data: { date: d.date, text: d.text }, signal: "pattern" });
  for (const email of findEmails(plain)) found.push({ type: "Email", data: { email }, signal: "pattern" });
  for (const telephone of findPhones(plain))
    found.push({ type: "Phone", data: { telephone }, signal: "pattern" });
  const labels = findLabels(text);
  if (Object.keys(labels).length) found.push({ type: "Labels", data: labels, signal: "pattern" });
  return found;
}
