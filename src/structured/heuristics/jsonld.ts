import {
  absoluteUrl,
  decodeEntities,
  type Element,
  localName,
  type ParentNode,
  rawText,
  walkElements,
} from "./dom.ts";
import type { Data, Found } from "./types.ts";

/** Keys whose string values are links, resolved against the page URL. */
const URL_KEYS = new Set([
  "url",
  "image",
  "logo",
  "contentUrl",
  "thumbnailUrl",
  "sameAs",
  "item",
  "embedUrl",
]);
/** How deep a node may nest before the rest is dropped: real pages stay far below, hostile ones do not. */
const MAX_DEPTH = 24;

/**
 * Every typed JSON-LD node on the page: top-level nodes, members of `@graph` and of top-level
 * arrays, with `{"@id": ...}` references replaced by the node they name (once, so cycles end).
 * Malformed blocks are repaired when the fault is common (comments, trailing commas, raw line
 * breaks in strings) and skipped otherwise; this never throws.
 */
export function findJsonLd(root: ParentNode, base: string): Found[] {
  const blocks: unknown[] = [];
  walkElements(root, (el) => {
    if (isJsonLdScript(el)) {
      const parsed = parseLenient(rawText(el));
      if (parsed !== undefined) blocks.push(parsed);
      return false;
    }
    return undefined;
  });
  const nodes: Data[] = [];
  const collect = (value: unknown, depth = 0): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) for (const item of value) collect(item, depth + 1);
    else if (isObject(value)) {
      if (Array.isArray(value["@graph"]) || isObject(value["@graph"])) collect(value["@graph"], depth + 1);
      if (value["@type"] !== undefined) nodes.push(value);
      // A WebPage's mainEntity is the page's real subject (the Product, the Article); a FAQPage's are its questions.
      if (/Page$/.test(typeOf(value["@type"])) && !/^(FAQ|QA)Page$/.test(typeOf(value["@type"]))) {
        collect(value.mainEntity, depth + 1);
      }
    }
  };
  for (const block of blocks) collect(block);

  const byId = new Map<string, Data>();
  for (const node of nodes)
    if (typeof node["@id"] === "string" && !byId.has(node["@id"])) byId.set(node["@id"], node);

  const found: Found[] = [];
  for (const node of nodes) {
    const data = normalise(node, base, byId, new Set([node]), 0) as Data;
    delete data["@context"];
    found.push({ type: typeOf(node["@type"]), data, signal: "json-ld" });
  }
  return found;
}

function isJsonLdScript(el: Element): boolean {
  return el.name === "script" && /^\s*application\/ld\+json\b/i.test(el.attribs.type ?? "");
}

function isObject(value: unknown): value is Data {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first of a node's types, by its local name ("http://schema.org/Product" -> "Product"). */
export function typeOf(type: unknown): string {
  const first = Array.isArray(type) ? type.find((t) => typeof t === "string") : type;
  return typeof first === "string" && first.trim() ? localName(first) : "Thing";
}

/** JSON.parse, then again after fixing what CMS templates commonly break; undefined when both fail. */
export function parseLenient(text: string): unknown {
  const body = text
    .trim()
    .replace(/^<!--|-->$/g, "")
    .replace(/^\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>$/g, "")
    .replace(/^<!\[CDATA\[|\]\]>$/g, "")
    .trim();
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    // Fall through to the repairs below.
  }
  try {
    return JSON.parse(repair(body));
  } catch {
    // Broken JSON-LD is a hint lost, never a reason to fail the page.
    return undefined;
  }
}

/** Removes trailing commas and escapes raw control characters inside strings. */
function repair(json: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === "\\") {
        out += c + (json[i + 1] ?? "");
        i++;
      } else if (c === '"') {
        inString = false;
        out += c;
      } else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c === "\t") out += "\\t";
      else out += c;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === ",") {
      const next = /^\s*([\]}])/.exec(json.slice(i + 1, i + 64));
      if (!next) out += c;
    } else out += c;
  }
  return out;
}

/** A copy of a node with references resolved, entities decoded, links absolute and prefixes dropped. */
function normalise(
  value: unknown,
  base: string,
  byId: Map<string, Data>,
  seen: Set<Data>,
  depth: number,
): unknown {
  if (depth > MAX_DEPTH) return null;
  if (typeof value === "string") return decodeEntities(value).trim();
  if (Array.isArray(value)) return value.map((v) => normalise(v, base, byId, seen, depth + 1));
  if (!isObject(value)) return value;
  let node = value;
  const id = node["@id"];
  if (typeof id === "string" && Object.keys(node).length === 1) {
    const target = byId.get(id);
    if (!target || seen.has(target)) return { "@id": id };
    node = target;
  }
  const inner = new Set(seen).add(node);
  const out: Data = {};
  for (const [rawKey, v] of Object.entries(node)) {
    const key = rawKey.startsWith("@") ? rawKey : localName(rawKey);
    let normalised = normalise(v, base, byId, inner, depth + 1);
    if (key === "@type") normalised = Array.isArray(v) ? v.map((t) => typeOf(t)) : typeOf(v);
    else if (URL_KEYS.has(key)) normalised = resolveLinks(normalised, base);
    out[key] = normalised;
  }
  return out;
}

function resolveLinks(value: unknown, base: string): unknown {
  if (typeof value === "string")
    return /^(https?:)?\/\/|^\/|^\.\.?\//.test(value) ? (absoluteUrl(value, base) ?? value) : value;
  if (Array.isArray(value)) return value.map((v) => resolveLinks(v, base));
  return value;
}
