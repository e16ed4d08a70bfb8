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

/**
 * Renders a JSON body: markdown as a ```json fenced block, text as the
 * two-space pretty JSON, html as <pre><code class="language-json">. Never
 * throws: invalid JSON is passed through as served inside the same block,
 * because a partial answer beats none.
 */
export function jsonToContent(text: string, format: OutputFormat): JsonContent {
  const source = text.replace(/^\uFEFF/, "");
  let pretty = source.trim();
  let title = "";
  try {
    const data: unknown = JSON.parse(source);
    pretty = JSON.stringify(data, null, 2);
    title = topLevelTitle(data);
  } catch {
    // Keep the raw text; the caller asked for this URL and it is still readable.
  }
  if (format === "text") return { title, content: pretty };
  if (format === "html") {
    return { title, content: `<pre><code class="language-json">${escapeHtml(pretty)}</code></pre>` };
  }
  const fence = codeFence(pretty);
  return { title, content: `${fence}json\n${pretty}\n${fence}` };
}
