import { localName } from "./dom.ts";
import { durationMinutes, findDates, findEmails, findPhones, parseAmount } from "./patterns.ts";
import { isEmpty, isObject } from "./resolve.ts";
import type { FieldSchema } from "./schema.ts";
import { norm, stem, words } from "./vocabulary.ts";

/**
 * Turning what a page says into the type a schema asks for: "19,99 €" -> 19.99, "PT15M" -> 15
 * for a time in minutes, an Offer -> its price, a Person -> its name, "https://schema.org/InStock"
 * -> "InStock" or true. `undefined` means the value cannot be read as that type.
 */

const SCHEMA_ORG_ENUM = /^https?:\/\/schema\.org\/([A-Za-z_]+)$/;
/** Keys that hold an object's own text, best first. */
const TEXT_KEYS = [
  "name",
  "text",
  "@value",
  "value",
  "headline",
  "title",
  "caption",
  "url",
  "contentUrl",
  "item",
];
const NUMBER_KEYS = [
  "value",
  "price",
  "ratingValue",
  "amount",
  "calories",
  "minValue",
  "lowPrice",
  "maxValue",
  "highPrice",
];
const ADDRESS_KEYS = ["streetAddress", "postalCode", "addressLocality", "addressRegion", "addressCountry"];
const DATE_NAMES = new Set([
  "published",
  "publishedat",
  "pubdate",
  "created",
  "createdat",
  "updated",
  "updatedat",
  "modified",
  "lastmodified",
  "posted",
  "postedat",
  "start",
  "end",
  "deadline",
  "validthrough",
  "expire",
  "closingdate",
  "when",
]);
const TRUE_WORDS =
  /^(true|yes|y|1|ja|oui|sí|si|instock|instoreonly|onlineonly|limitedavailability|available|telecommute|remote|lieferbar|aufLager|enstock|disponible)$/i;
const FALSE_WORDS =
  /^(false|no|n|0|nein|non|outofstock|soldout|discontinued|unavailable|notavailable|ausverkauft|nichtlieferbar|epuise|agotado)$/i;

/** Whether a field name asks for an email address or a phone number. */
export function contactKind(name: string): "email" | "phone" | null {
  const s = stem(name);
  if (s.includes("email") || words(name).includes("mail")) return "email";
  if (/phone|telephone|^tel$|mobile|fax/.test(s)) return "phone";
  return null;
}

/** Whether a field name asks for a date ("datePublished", "startDate", "deadline", ...). */
export function isDateName(name: string): boolean {
  const s = stem(name);
  return s.includes("date") || DATE_NAMES.has(s);
}

function isTimeName(name: string): boolean {
  const w = words(name);
  return w.some((x) => ["time", "duration", "minutes", "minute", "mins", "hours", "hour"].includes(x));
}

/** Text of a value: strings cleaned, objects by their name or text, addresses written out, lists joined. */
export function toText(value: unknown): string | undefined {
  if (typeof value === "string") {
    const text = value.replace(/\s+/g, " ").trim();
    if (!text) return undefined;
    const en = SCHEMA_ORG_ENUM.exec(text);
    if (en) return en[1];
    return text.replace(/^(mailto|tel):/i, "");
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(toText).filter((t): t is string => t !== undefined);
    if (!parts.length) return undefined;
    // Several images or links are alternatives: the first is the one; several names are all of them.
    if (parts.every((p) => /^https?:\/\//.test(p))) return parts[0];
    return parts.join(parts.some((p) => p.length > 60) ? "\n" : ", ");
  }
  if (isObject(value)) {
    if (
      value["@type"] === "PostalAddress" ||
      ADDRESS_KEYS.some((k) => value[k] !== undefined && value.name === undefined)
    ) {
      const address = ADDRESS_KEYS.map((k) => toText(value[k])).filter(Boolean);
      if (address.length) return address.join(", ");
    }
    // A step's name is its label ("Step 1"); its text is the step.
    const keys = /^HowTo/.test(String(value["@type"] ?? "")) ? ["text", ...TEXT_KEYS] : TEXT_KEYS;
    for (const key of keys) {
      const text = isEmpty(value[key]) ? undefined : toText(value[key]);
      if (text) return text;
    }
    if (isObject(value.address)) return toText(value.address);
  }
  return undefined;
}

/** The numbers in a string, as written with either decimal mark. */
function amountsIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\d{1,3}(?:[.,\u00a0\u202f' ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?/g)) {
    const n = parseAmount(m[0]);
    if (n !== null) out.push(n);
  }
  return out;
}

/** Which end of a range a field wants: "salaryMax" the upper, "minPrice" the lower. */
function wantsUpper(name: string): boolean {
  return words(name).some((w) => ["max", "maximum", "high", "highest", "to", "upper", "until"].includes(w));
}

/** A number from a number, a price or measure as written, a duration (in minutes) or a schema.org value object. */
export function toNumber(value: unknown, name: string): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string") {
    if (isTimeName(name)) {
      const minutes = durationMinutes(value);
      if (minutes !== null) return words(name).some((w) => w.startsWith("hour")) ? minutes / 60 : minutes;
    }
    const amounts = amountsIn(value);
    if (!amounts.length) return undefined;
    return wantsUpper(name) ? amounts[amounts.length - 1] : amounts[0];
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const n = toNumber(item, name);
      if (n !== undefined) return n;
    }
    return undefined;
  }
  if (isObject(value)) {
    const keys = wantsUpper(name) ? ["maxValue", "highPrice", ...NUMBER_KEYS] : NUMBER_KEYS;
    for (const key of keys) {
      if (isEmpty(value[key])) continue;
      const n = toNumber(value[key], name);
      if (n !== undefined) return n;
    }
  }
  return undefined;
}

/** A boolean from true/false words, availability (InStock) or a remote-work marker (TELECOMMUTE). */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (Array.isArray(value)) return value.length ? toBoolean(value[0]) : undefined;
  const text = toText(value);
  if (text === undefined) return undefined;
  const key = norm(localName(text));
  if (TRUE_WORDS.test(key) || /^(in stock|auf lager|en stock|available now)/i.test(text)) return true;
  if (FALSE_WORDS.test(key) || /^(out of stock|sold out|not available)/i.test(text)) return false;
  return undefined;
}

/** The enum value a text stands for, by exact, case-insensitive or normalised match ("Full-time" -> "FULL_TIME"). */
function matchEnum(value: string, options: unknown[]): unknown {
  if (options.includes(value)) return value;
  const wanted = norm(localName(value));
  const exact = options.find((o) => typeof o === "string" && norm(o) === wanted);
  if (exact !== undefined) return exact;
  // "Full-time, permanent" is FULL_TIME: an option whose words all appear together in the value.
  const text = ` ${words(value).join(" ")} `;
  const within = options.filter((o) => typeof o === "string" && text.includes(` ${words(o).join(" ")} `));
  return within.length === 1 ? within[0] : undefined;
}

/** A string in the schema's format: dates as ISO 8601, links only when absolute. */
function formatted(text: string, field: FieldSchema, name: string): string | undefined {
  const format = field.format;
  if (format === "date" || format === "date-time" || (!format && isDateName(name))) {
    if (/^\d{4}-\d{2}-\d{2}/.test(text)) return format === "date" ? text.slice(0, 10) : text;
    const date = findDates(text)[0]?.date;
    if (date) return format === "date" ? date.slice(0, 10) : date;
    return format ? undefined : text;
  }
  if (format === "uri" || format === "url" || format === "iri")
    return /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : undefined;
  if (format === "email") return /^[^\s@]+@[^\s@]+$/.test(text) ? text : undefined;
  // A phone or email field wants the number or address, not the opening hours printed beside it.
  const kind = contactKind(name);
  if (kind === "email") return findEmails(text)[0] ?? text;
  if (kind === "phone") return findPhones(text)[0] ?? text;
  return text;
}

/** `value` as a scalar of `field`'s type; undefined when it cannot be read as one. */
export function coerceScalar(value: unknown, field: FieldSchema, name: string): unknown {
  switch (field.kind) {
    case "string": {
      const text = toText(value);
      if (text === undefined) return undefined;
      if (field.enum) return matchEnum(text, field.enum);
      return formatted(text, field, name);
    }
    case "number":
      return toNumber(value, name);
    case "integer": {
      const n = toNumber(value, name);
      return n === undefined ? undefined : Math.round(n);
    }
    case "boolean":
      return toBoolean(value);
    case "any":
      return isEmpty(value) ? undefined : typeof value === "string" ? toText(value) : value;
    default:
      return undefined;
  }
}

/** Keys of list values that are better read as several values: "coffee, travel" is two keywords. */
const SPLIT_KEYS = new Set(["keywords", "keyword", "tags", "tag", "categories", "category"]);

/** The items of a list value: arrays as they are, HowToSections opened into their steps, keyword strings split. */
export function listItems(value: unknown, sourcePath: string): unknown[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) =>
      isObject(item) &&
      Array.isArray(item.itemListElement) &&
      /Section|ItemList/.test(String(item["@type"] ?? ""))
        ? listItems(item.itemListElement, "")
        : [item],
    );
  }
  if (isObject(value) && Array.isArray(value.itemListElement)) return listItems(value.itemListElement, "");
  if (typeof value === "string" && SPLIT_KEYS.has(norm(sourcePath.split(".").pop() ?? ""))) {
    return value
      .split(/\s*[,;]\s*/)
      .map((s) => s.trim())
      .filter(Boolean);
  }
  return [value];
}
