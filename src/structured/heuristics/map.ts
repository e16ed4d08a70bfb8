import { coerceScalar, contactKind, isDateName, listItems, toText } from "./coerce.ts";
import {
  findAvailability,
  findByline,
  findLabels,
  findOrganizer,
  findPatterns,
  findRating,
} from "./patterns.ts";
import { type Hit, isEmpty, isObject, lookup } from "./resolve.ts";
import { type FieldSchema, type JsonSchema, propertySchema, readSchema, satisfies } from "./schema.ts";
import { type Data, type Found, SIGNAL_ORDER, type Signal } from "./types.ts";
import { familyFromWords, familyOf, LIST_PROPERTY, SIGNATURES, stem, words } from "./vocabulary.ts";

/** Where field values may come from, most trusted first. */
interface Source {
  data: Data;
  signal: Signal;
}

interface Context {
  found: Found[];
  tables: Found[];
  readonly patterns: Found[];
  text: string;
  sources: Record<string, Signal>;
}

/** Types that describe the site or its chrome, never the thing a schema asks about. */
const CHROME_TYPES = new Set([
  "WebSite",
  "BreadcrumbList",
  "SiteNavigationElement",
  "SearchAction",
  "WPHeader",
  "WPFooter",
  "ImageObject",
]);
const KEY_VALUE_TYPES = new Set(["PropertyTable", "DefinitionList", "Lists", "Labels"]);
const PAGE_SIGNALS = new Set<Signal>(["opengraph", "twitter", "meta"]);
/** Field names the page's main text answers when nothing structured does. */
const BODY_NAMES = new Set(["body", "content", "text", "articlebody", "maintext", "fulltext"]);
/** Properties a lone string fills when an object is asked for ("author": "Ann" -> { name: "Ann" }). */
const PRIMARY_PROPERTIES = ["name", "text", "title", "value", "amount", "price", "url"];

/**
 * Fills a JSON Schema (object root) from what was found on a page: every property present, null
 * where nothing was found, values coerced to the schema's types, nested objects and arrays of
 * objects filled from nested data or tables. Fields come from the Founds that best match what
 * the schema describes (its title or description, else its field names), most reliable signal
 * first, then from patterns in `text` (the page's main content). `sources` names the signal
 * behind each filled field, by path ("price", "offers.price", "ingredients").
 */
export function fillSchema(
  schema: JsonSchema,
  found: Found[],
  text: string,
): { data: Record<string, unknown>; sources: Record<string, Signal> } {
  const root = readSchema(schema);
  let patterns: Found[] | undefined;
  const ctx: Context = {
    found,
    tables: found.filter((f) => f.type === "Table"),
    // Read from the text only when a field falls through to them: most pages never need them.
    get patterns() {
      patterns ??= [...found, ...(text ? findPatterns(text) : [])].filter(
        (f) => f.signal === "pattern" && f.type !== "Labels",
      );
      return patterns;
    },
    text,
    sources: {},
  };
  const textLabels = text ? findLabels(text) : {};
  const labels = found.filter((f) => f.type === "Labels");
  if (Object.keys(textLabels).length) labels.push({ type: "Labels", data: textLabels, signal: "pattern" });
  const target = targetFamily(root, found);
  const ranked = rank([...found, ...labels.filter((l) => !found.includes(l))], root, target);
  if (!root.properties?.length) {
    // A schema with no properties is filled with the best match whole.
    const best = ranked[0];
    if (best && root.raw.additionalProperties !== false) {
      for (const key of Object.keys(best.data)) ctx.sources[key] = best.signal;
      return { data: { ...best.data }, sources: ctx.sources };
    }
    return { data: {}, sources: ctx.sources };
  }
  const data = fillObject(root, ranked, ctx, "", { patterns: true, root: true }) ?? {};
  return { data, sources: ctx.sources };
}

/** Which family (Product, Article, Recipe, ...) a schema describes: by its words, else by its field names. */
export function targetFamily(root: FieldSchema, found: Found[]): string | null {
  const byWords = familyFromWords(root.words) ?? familyFromWords(String(root.raw.$id ?? ""));
  if (byWords) return byWords;
  const stems = (root.properties ?? []).map(([name]) => stem(name));
  const present = new Set(found.map((f) => familyOf(f.type)));
  let best: string | null = null;
  let bestScore = 0;
  for (const [family, signature] of Object.entries(SIGNATURES)) {
    const hits = stems.filter((s) => signature.includes(s)).length;
    // A family the page actually has breaks ties.
    const score = hits ? hits + (present.has(family) ? 0.5 : 0) : 0;
    if (score > bestScore) {
      best = family;
      bestScore = score;
    }
  }
  return best;
}

/** How well a Found can speak for the schema: 3 same family, 2 the page itself, 1 key/value markup, 0 not at all. */
function compatibility(f: Found, target: string | null): number {
  if (KEY_VALUE_TYPES.has(f.type)) return 1;
  if (PAGE_SIGNALS.has(f.signal)) return target && familyOf(f.type) === target ? 3 : 2;
  const family = familyOf(f.type);
  if (target === null) return CHROME_TYPES.has(f.type) ? 0 : 2;
  if (family === target) return 3;
  return family === "Page" ? 2 : 0;
}

function rank(found: Found[], root: FieldSchema, target: string | null): Source[] {
  const names = (root.properties ?? []).map(([name]) => name);
  const scored: { source: Source; score: number; order: number }[] = [];
  found.forEach((f, order) => {
    if (f.type === "Table" || (f.signal === "pattern" && f.type !== "Labels")) return;
    const compat = compatibility(f, target);
    if (!compat) return;
    const coverage = names.filter((n) => lookup(f.data, n)).length;
    const reliability = SIGNAL_ORDER.length - SIGNAL_ORDER.indexOf(f.signal);
    scored.push({
      source: { data: f.data, signal: f.signal },
      score: compat * 1000 + reliability * 100 + coverage,
      order,
    });
  });
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map((s) => s.source);
}

interface FillOptions {
  /** Whether patterns in the page text may fill fields (not for the items of a list: they are not the page's). */
  patterns: boolean;
  root?: boolean;
}

/** An object's properties from `sources`; null when none could be filled (except at the root). */
function fillObject(
  field: FieldSchema,
  sources: Source[],
  ctx: Context,
  prefix: string,
  opts: FillOptions,
): Data | null {
  const out: Data = {};
  let filled = false;
  for (const [name, entry] of field.properties ?? []) {
    const value = fillField(name, propertySchema(entry), sources, ctx, prefix + name, opts);
    out[name] = value;
    if (value !== null) filled = true;
  }
  return filled || opts.root ? out : null;
}

function fillField(
  name: string,
  field: FieldSchema,
  sources: Source[],
  ctx: Context,
  path: string,
  opts: FillOptions,
): unknown {
  if (field.kind === "object" && field.properties) return fillNested(name, field, sources, ctx, path, opts);
  if (field.kind === "array") return fillArray(name, field, sources, ctx, path, opts);
  for (const source of sources) {
    const hit = lookup(source.data, name);
    if (!hit) continue;
    const value = coerceScalar(hit.value, field, name);
    if (value !== undefined && satisfies(value, field)) {
      ctx.sources[path] = source.signal;
      return value;
    }
  }
  if (opts.patterns) {
    const value = fromPatterns(name, field, ctx, opts);
    if (value !== undefined && satisfies(value, field)) {
      ctx.sources[path] = "pattern";
      return value;
    }
  }
  return null;
}

/** An object property: from the object each source has under that name, or a lone string as its name. */
function fillNested(
  name: string,
  field: FieldSchema,
  sources: Source[],
  ctx: Context,
  path: string,
  opts: FillOptions,
): Data | null {
  const nested: Source[] = [];
  for (const source of sources) {
    const hit = lookup(source.data, name);
    if (!hit) continue;
    const object = asObject(hit, field);
    if (object) nested.push({ data: object, signal: source.signal });
  }
  for (const f of foundsOfFamily(name, ctx)) nested.push({ data: f.data, signal: f.signal });
  return fillObject(field, nested, ctx, `${path}.`, { patterns: opts.patterns });
}

/** A hit as an object for `field`: the object itself, the first object of a list, or a string as the primary property. */
function asObject(hit: Hit, field: FieldSchema): Data | null {
  const value = Array.isArray(hit.value) ? (hit.value.find(isObject) ?? hit.value[0]) : hit.value;
  if (isObject(value)) return value;
  const primary = PRIMARY_PROPERTIES.find((p) => field.properties?.some(([n]) => n === p));
  const text = toText(value);
  return primary && text ? { [primary]: text } : null;
}

/** Founds of the family a field's name names ("publisher" -> Organization, "breadcrumbs" -> BreadcrumbList). */
function foundsOfFamily(name: string, ctx: Context): Found[] {
  const family = familyFromWords(words(name).join(" "));
  if (!family) return [];
  return ctx.found
    .filter((f) => familyOf(f.type) === family && f.signal !== "pattern")
    .sort((a, b) => SIGNAL_ORDER.indexOf(a.signal) - SIGNAL_ORDER.indexOf(b.signal));
}

function fillArray(
  name: string,
  field: FieldSchema,
  sources: Source[],
  ctx: Context,
  path: string,
  opts: FillOptions,
): unknown[] | null {
  const items = field.items!();
  const accept = (values: unknown[], signal: Signal): unknown[] | null => {
    if (!values.length || !satisfies(values, field)) return null;
    ctx.sources[path] = signal;
    return values;
  };
  // Lists of a family: the page's events, its breadcrumbs, its questions. A list-shaped family
  // (BreadcrumbList, FAQPage) comes first: its name is no field of the thing the page is about.
  const family = foundsOfFamily(name, ctx);
  const fromFamily = (): unknown[] | null => {
    if (!family.length) return null;
    const list = LIST_PROPERTY[family[0]!.type];
    const raw = list
      ? listItems(family[0]!.data[list], list)
      : family.filter((f) => f.signal === family[0]!.signal).map((f) => f.data);
    return accept(fillItems(raw, items, family[0]!.signal, ctx, path), family[0]!.signal);
  };
  const listFamily = family.length > 0 && LIST_PROPERTY[family[0]!.type] !== undefined;
  if (listFamily) {
    const done = fromFamily();
    if (done) return done;
  }
  for (const source of sources) {
    const hit = lookup(source.data, name);
    if (!hit) continue;
    const values = fillItems(listItems(hit.value, hit.path), items, source.signal, ctx, path);
    const done = accept(values, source.signal);
    if (done) return done;
  }
  if (!listFamily) {
    const done = fromFamily();
    if (done) return done;
  }
  if (items.kind === "object" && items.properties) {
    const table = bestTable(items, ctx.tables);
    if (table) {
      const rows = withNames(
        (table.data.rows as Data[]) ?? [],
        (table.data.headers as string[]) ?? [],
        items,
      );
      const done = accept(fillItems(rows, items, "table", ctx, path), "table");
      if (done) return done;
    }
  }
  if (opts.patterns && items.kind !== "object") {
    const values = patternList(name, ctx)
      .map((v) => coerceScalar(v, items, name))
      .filter((v) => v !== undefined);
    const done = accept(values, "pattern");
    if (done) return done;
  }
  return null;
}

function fillItems(
  raw: unknown[],
  items: FieldSchema,
  signal: Signal,
  ctx: Context,
  path: string,
): unknown[] {
  const out: unknown[] = [];
  for (const item of raw) {
    let value: unknown;
    if (items.kind === "object" && items.properties) {
      const object = isObject(item) ? item : asObject({ value: item, path: "" }, items);
      // The items' own fields are recorded once, under the list's path.
      const scratch: Context = { ...ctx, sources: {} };
      value = object
        ? fillObject(items, [{ data: object, signal }], scratch, `${path}[].`, { patterns: false })
        : null;
    } else value = coerceScalar(item, items, "");
    if (value !== null && value !== undefined && satisfies(value, items)) out.push(value);
  }
  return out;
}

/**
 * Rows with the first column as their name when no header says "name" or "title": a table's
 * first column is what each row is about ("Hut", "Plan", "Country").
 */
function withNames(rows: Data[], headers: string[], items: FieldSchema): Data[] {
  const first = headers[0];
  const wanted = ["name", "title"].find((n) => items.properties?.some(([p]) => p === n));
  if (!first || !wanted || headers.some((h) => lookup({ [h]: "x" }, wanted))) return rows;
  return rows.map((row) => ({ ...row, [wanted]: row[first] }));
}

/** The table whose headers answer most of the item schema's properties (at least a third of them). */
function bestTable(items: FieldSchema, tables: Found[]): Found | null {
  const names = (items.properties ?? []).map(([n]) => n);
  let best: Found | null = null;
  let bestScore = 0;
  for (const table of tables) {
    const headers = (table.data.headers as string[]) ?? [];
    const record = Object.fromEntries(headers.map((h) => [h, "x"]));
    const score = names.filter((n) => lookup(record, n)).length;
    if (score > bestScore && score >= Math.max(1, Math.ceil(names.length / 3))) {
      best = table;
      bestScore = score;
    }
  }
  return best;
}

type PatternKind =
  | "price"
  | "currency"
  | "date"
  | "email"
  | "phone"
  | "availability"
  | "author"
  | "organizer"
  | "rating"
  | "reviewCount";

/** What kind of pattern a field name asks for. */
function patternKind(name: string): PatternKind | null {
  const s = stem(name);
  if (/^(author|authorname|writer|byline|creator)$/.test(s)) return "author";
  if (/^(organizer|organiser|host|presenter|promoter)$/.test(s)) return "organizer";
  if (/^(rating|ratingvalue|averagerating|star|score)$/.test(s)) return "rating";
  if (/^(reviewcount|numberofreview|ratingcount|review)$/.test(s)) return "reviewCount";
  const contact = contactKind(name);
  if (contact) return contact;
  if (s.includes("currency")) return "currency";
  if (/price|cost|amount|salary|preis|prix|precio|fee/.test(s)) return "price";
  if (isDateName(name)) return "date";
  if (/availab|instock|^stock$/.test(s)) return "availability";
  return null;
}

function patternList(name: string, ctx: Context): unknown[] {
  const kind = patternKind(name);
  const of = (type: string) => ctx.patterns.filter((f) => f.type === type);
  if (kind === "email") return of("Email").map((f) => f.data.email);
  if (kind === "phone") return of("Phone").map((f) => f.data.telephone);
  if (kind === "date") return of("Date").map((f) => f.data.date);
  if (kind === "price")
    return of("Price")
      .filter((f) => !f.data.former)
      .map((f) => f.data.price);
  return [];
}

/** A field from the page text when no structured signal had it: prices, dates, emails, phones, availability, the text itself. */
function fromPatterns(name: string, field: FieldSchema, ctx: Context, opts: FillOptions): unknown {
  const kind = patternKind(name);
  const prices = ctx.patterns.filter((f) => f.type === "Price" && !f.data.former);
  switch (kind) {
    case "email":
    case "phone":
      return coerceScalar(patternList(name, ctx)[0], field, name);
    case "currency":
      return coerceScalar(prices[0]?.data.priceCurrency, field, name);
    case "price": {
      // A range ("€70,000 – €85,000") gives its upper end to max fields.
      const upper = words(name).some((w) => ["max", "high", "to", "upper"].includes(w));
      const price =
        upper && prices[1] && (prices[1].data.price as number) > (prices[0]!.data.price as number)
          ? prices[1]
          : prices[0];
      if (!price) return undefined;
      return field.kind === "string"
        ? coerceScalar(price.data.text, field, name)
        : coerceScalar(price.data.price, field, name);
    }
    case "date": {
      const dates = patternList(name, ctx);
      const s = stem(name);
      // The second date a page shows is where an end or a deadline usually is.
      const later = /end|until|deadline|validthrough|expire|closing/.test(s);
      return coerceScalar(later ? (dates[1] ?? undefined) : dates[0], field, name);
    }
    case "author":
      return coerceScalar(findByline(ctx.text) ?? undefined, field, name);
    case "organizer":
      return coerceScalar(findOrganizer(ctx.text) ?? undefined, field, name);
    case "rating":
      return coerceScalar(findRating(ctx.text).ratingValue ?? undefined, field, name);
    case "reviewCount":
      return coerceScalar(findRating(ctx.text).reviewCount ?? undefined, field, name);
    case "availability": {
      const availability = findAvailability(ctx.text);
      return availability ? coerceScalar(availability, field, name) : undefined;
    }
  }
  if (
    opts.root &&
    field.kind === "string" &&
    !field.enum &&
    BODY_NAMES.has(stem(name)) &&
    !isEmpty(ctx.text)
  ) {
    return ctx.text.trim();
  }
  return undefined;
}
