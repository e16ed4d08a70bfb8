import type { Source } from "../answer/sources.ts";
import type { ToolCall, ToolSpec } from "../llm/index.ts";
import { rankPassages } from "../passages/index.ts";
import type { Notebook, Refusal } from "./notebook.ts";

export const SEARCH_TOOL: ToolSpec = {
  name: "search_web",
  description: "Search the web. Returns up to 5 results: title, URL and snippet.",
  parameters: {
    type: "object",
    properties: { query: { type: "string", description: "The search query" } },
    required: ["query"],
    additionalProperties: false,
  },
};

export const FETCH_TOOL: ToolSpec = {
  name: "fetch_page",
  description:
    "Read web pages (several at once if useful). Returns each page's passages most relevant to the task, and its links.",
  parameters: {
    type: "object",
    properties: {
      urls: { type: "array", items: { type: "string" }, description: "Absolute http(s) URLs", minItems: 1 },
    },
    required: ["urls"],
    additionalProperties: false,
  },
};

export const FINISH_TOOL: ToolSpec = {
  name: "finish",
  description: "Call when the pages read are enough to answer the task (or nothing more can be found).",
  parameters: { type: "object", properties: {}, additionalProperties: false },
};

/** Tokens of one page shown to the model while it researches (the answer sees more). */
const PAGE_TOKENS = 900;
const LINKS_SHOWN = 10;

const REFUSALS: Record<Refusal, string> = {
  sources: "not read: the source limit is reached; call finish",
  credits: "not read: the credit cap (maxCredits) is reached; call finish",
  seen: "already read",
  failed: "could not be fetched",
};

/** A page as the model sees it mid-research: its best passages for the task, then some links. */
function pageView(source: Source, task: string): string {
  const ranked = rankPassages(task, source.passages, [source.title]);
  const chosen = (ranked.length ? ranked.map((r) => r.passage) : source.passages).slice();
  let budget = PAGE_TOKENS * 4;
  const texts: string[] = [];
  for (const passage of chosen) {
    if (passage.text.length > budget && texts.length) break;
    texts.push(passage.text.slice(0, budget));
    budget -= passage.text.length;
  }
  const links = (source.page?.links ?? []).slice(0, LINKS_SHOWN);
  return [
    `${source.title} (${source.url})`,
    texts.join("\n\n") || "(no text)",
    links.length ? `Links: ${links.join(" ")}` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** What a tool call gives the model back, as text; `finished` when it called finish. */
export async function runTool(
  call: ToolCall,
  notebook: Notebook,
  task: string,
): Promise<{ content: string; finished?: boolean }> {
  const args = call.arguments;
  if (call.name === FINISH_TOOL.name) return { content: "ok", finished: true };
  if (!args) return { content: `Error: the arguments of ${call.name} were not a JSON object` };
  if (call.name === SEARCH_TOOL.name) {
    const query = typeof args.query === "string" ? args.query.trim() : "";
    if (!query) return { content: "Error: query must be a non-empty string" };
    const hits = await notebook.search(query);
    if (hits === null)
      return { content: "Not searched: the search budget is spent; read pages or call finish" };
    if (hits.length === 0) return { content: "No results" };
    return { content: hits.map((h, i) => `${i + 1}. ${h.title}\n${h.url}\n${h.snippet}`).join("\n\n") };
  }
  if (call.name === FETCH_TOOL.name) {
    const urls = (Array.isArray(args.urls) ? args.urls : [args.url]).filter(
      (u): u is string => typeof u === "string" && /^https?:\/\//i.test(u),
    );
    if (urls.length === 0) return { content: "Error: urls must hold absolute http(s) URLs" };
    const results = await notebook.read(urls.map((url) => ({ url, title: "", snippet: "" })));
    const parts = results.map((result, i) =>
      typeof result === "string" ? `${urls[i]}: ${REFUSALS[result]}` : pageView(result, task),
    );
    return { content: parts.join("\n\n---\n\n") };
  }
  return { content: `Error: there is no tool named ${call.name}` };
}
