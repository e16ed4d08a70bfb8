import type { Data } from "./types.ts";
import { norm, SYNONYMS, stem, words } from "./vocabulary.ts";

/** Field names too general to look for inside nested objects (an author's description is not the article's). */
const GENERIC = new Set([
  "name",
  "title",
  "headline",
  "description",
  "url",
  "link",
  "image",
  "text",
  "id",
  "type",
]);
const MAX_SEARCH_DEPTH = 2;

export function isObject(value: unknown): value is Data {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for values that say nothing: null, empty strings, empty arrays and objects with only "@" keys. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.every(isEmpty);
  if (isObject(value)) return Object.entries(value).every(([k, v]) => k.startsWith("@") || isEmpty(v));
  return false;
}

/** An object's keys by `norm` and by `stem`, and its printed labels' word stems, made once per object. */
interface KeyIndex {
  byNorm: Map<string, unknown>;
  /** Non-empty values by the stem of their key ("@" keys left out), first key wins. */
  byStem: Map<string, { key: string; value: unknown }>;
  /** Keys that read as printed labels (with a space or a bracket), and their word stems. */
  labels: { key: string; value: unknown; stems: string[] }[];
}
// Found data is not changed once found, so an object's index stays true for its life.
const indexes = new WeakMap<Data, KeyIndex>();

function indexOf(data: Data): KeyIndex {
  let index = indexes.get(data);
  if (!index) {
    index = { byNorm: new Map(), byStem: new Map(), labels: [] };
    for (const [key, value] of Object.entries(data)) {
      const n = norm(key);
      if (!index.byNorm.has(n)) index.byNorm.set(n, value);
      if (key.startsWith("@") || isEmpty(value)) continue;
      const s = stem(key);
      if (!index.byStem.has(s)) index.byStem.set(s, { key, value });
      if (/[\s(]/.test(key.trim())) {
        const stems = labelStems(key);
        if (stems.length <= 6) index.labels.push({ key, value, stems });
      }
    }
    indexes.set(data, index);
  }
  return index;
}

/** The value under `key` in `data`, matching keys by `norm` ("Prep time" answers "prepTime"). */
function getKey(data: Data, key: string): unknown {
  if (data[key] !== undefined) return data[key];
  return indexOf(data).byNorm.get(norm(key));
}

/** The value at a dotted path; arrays on the way are entered at their first element that has the key. */
export function getPath(data: Data, path: string): unknown {
  let current: unknown = data;
  for (const segment of path === "@id" || path.endsWith(".@id") ? splitId(path) : path.split(".")) {
    if (Array.isArray(current)) {
      current = current.find((item) => isObject(item) && !isEmpty(getKey(item, segment)));
      if (current === undefined) return undefined;
    }
    if (!isObject(current)) return undefined;
    current = getKey(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}

function splitId(path: string): string[] {
  return path === "@id" ? ["@id"] : [...path.slice(0, -4).split("."), "@id"];
}

export interface Hit {
  value: unknown;
  /** Where it was found in the Found's data. */
  path: string;
}

/**
 * Where `field` is in `data`: the key itself, then its synonyms (SYNONYMS), then any key with
 * the same stem, then its words as a path ("authorName" -> author.name), then (for specific
 * names) a key with the same stem in a nested object. Empty values do not count.
 */
export function lookup(data: Data, field: string): Hit | undefined {
  const direct = data[field];
  if (!isEmpty(direct)) return { value: direct, path: field };
  const s = stem(field);
  for (const path of SYNONYMS[s] ?? []) {
    const value = getPath(data, path);
    if (!isEmpty(value)) return { value, path };
  }
  const sameStem = indexOf(data).byStem.get(s);
  if (sameStem) return { value: sameStem.value, path: sameStem.key };
  const parts = words(field);
  for (let i = 1; i < parts.length; i++) {
    const head = getKey(data, parts.slice(0, i).join(""));
    if (!isObject(head) && !Array.isArray(head)) continue;
    const inner = Array.isArray(head) ? head.find(isObject) : head;
    if (!inner) continue;
    const hit = lookup(inner, parts.slice(i).join(""));
    if (hit) return { value: hit.value, path: `${parts.slice(0, i).join("")}.${hit.path}` };
  }
  if (!GENERIC.has(s)) {
    const nested = search(data, s, 0, "");
    if (nested) return nested;
  }
  return byLabelWords(data, field);
}

/** Stems of a printed label's words, units in brackets dropped: "Price per night (€)" -> price, per, night. */
function labelStems(label: string): string[] {
  let stems = labelCache.get(label);
  if (!stems) {
    stems = words(label.replace(/\([^)]*\)|\[[^\]]*\]/g, " ")).map(stem);
    if (labelCache.size > 5000) labelCache.clear();
    labelCache.set(label, stems);
  }
  return stems;
}
const labelCache = new Map<string, string[]>();

/**
 * A printed label (a table header, a dt) that contains all of the field's words or of one of
 * its synonyms' ("Altitude (m)" answers "altitude", "Price per night" answers "price").
 */
function byLabelWords(data: Data, field: string): Hit | undefined {
  const wanted = [
    words(field).map(stem),
    ...(SYNONYMS[stem(field)] ?? []).filter((p) => !p.includes(".")).map(labelStems),
  ];
  for (const { key, value, stems } of indexOf(data).labels) {
    if (wanted.some((w) => w.length > 0 && w.every((x) => stems.includes(x)))) return { value, path: key };
  }
  return undefined;
}

function search(data: Data, s: string, depth: number, prefix: string): Hit | undefined {
  if (depth > MAX_SEARCH_DEPTH) return undefined;
  const sameStem = depth > 0 ? indexOf(data).byStem.get(s) : undefined;
  if (sameStem) return { value: sameStem.value, path: prefix + sameStem.key };
  for (const [key, value] of Object.entries(data)) {
    if (isObject(value)) {
      const hit = search(value, s, depth + 1, `${prefix}${key}.`);
      if (hit) return hit;
    }
  }
  return undefined;
}
