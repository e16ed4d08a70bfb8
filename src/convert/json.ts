import type { OutputFormat } from "../extract/types.ts";
import { codeFence, escapeHtml } from "./escape.ts";

/** A JSON document rendered for reading: a title when the data names itself, the pretty-printed data as content. */
export interface JsonContent {
  title: string;
  content: string;
}

const MAX_TITLE_LENGTH = 200;

/** Many APIs name the object they return at the top level; deeper guesses would mislabel more than they help. */
function topLevelTitle(data: unknown): string {
  if (!data || typeof data !== "object" || Array.isArray(data)) return "";
  const record = data as Record<string, unknown>;
  for (const key of ["title", "name"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, MAX_TITLE_LENGTH);
  }
  return "";
}

/** Nesting past which JSON is shown as served: the same bound as an HTML tree's (src/extract/depth.ts). */
export const MAX_JSON_DEPTH = 512;
/**
 * How much pretty-printing may grow a body. Real data grows 1.3-3x (GeoJSON,
 * API answers), a matrix of one-digit numbers six deep about 7x; past 8x the
 * answer would be mostly indentation (7,000 nested arrays, 14 KB, pretty-print
 * to 98 MB), so the body is shown as served instead.
 */
const MAX_GROWTH = 8;
/** Small bodies may always be pretty-printed up to this size. */
const MIN_BUDGET = 1 << 20;

/**
 * Whether two-space pretty-printing keeps `source` readable: nesting at most
 * MAX_JSON_DEPTH and the output at most MAX_GROWTH times the body (or
 * MIN_BUDGET). One pass over the characters, strings skipped, counting each
 * line break and indent the printer would add: no parse, no recursion.
 */
export function prettyFits(source: string): boolean {
  const budget = Math.max(MIN_BUDGET, MAX_GROWTH * source.length);
  let depth = 0;
  let size = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      for (i++; i < source.length && source.charCodeAt(i) !== 34; i++) if (source.charCodeAt(i) === 92) i++;
      size += i - start + 1;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > MAX_JSON_DEPTH) return false;
      size += 2 + 2 * depth;
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth = Math.max(0, depth - 1);
      size += 2 + 2 * depth;
    } else if (c === 44 /* , */) size += 2 + 2 * depth;
    else if (c === 58 /* : */) size += 2;
    else if (c > 32) size++;
    if (size > budget) return false;
  }
  return true;
}

/**
 * Renders a JSON body: markdown as a ```json fenced block, text as the
 * two-space pretty JSON, html as <pre><code class="language-json">. Never
 * throws: invalid JSON is passed through as served inside the same block,
 * because a partial answer beats none; so is JSON that pretty-printing would
 * not serve (prettyFits: too deep, or mostly indentation), all of it still there.
 */
export function jsonToContent(text: string, format: OutputFormat): JsonContent {
  const source = text.replace(/^\uFEFF/, "");
  let pretty = source.trim();
  let title = "";
  if (prettyFits(source)) {
    try {
      const data: unknown = JSON.parse(source);
      pretty = JSON.stringify(data, null, 2);
      title = topLevelTitle(data);
    } catch {
      // Keep the raw text; the caller asked for this URL and it is still readable.
    }
  }
  if (format === "text") return { title, content: pretty };
  if (format === "html") {
    return { title, content: `<pre><code class="language-json">${escapeHtml(pretty)}</code></pre>` };
  }
  const fence = codeFence(pretty);
  return { title, content: `${fence}json\n${pretty}\n${fence}` };
}
