import { complete } from "../llm/complete.ts";
import type { LlmTarget } from "../llm/providers.ts";
import type { LlmDeps } from "../llm/types.ts";
import { extractiveSummary } from "../summary/extractive.ts";
import { oneLine } from "./build.ts";

const INSTRUCTIONS =
  "You write the description of a link in a site's llms.txt. In one sentence of at most 25 words, say what " +
  "the page offers a reader. No preamble, no quotes, no markdown.";
const MAX_INPUT_CHARS = 6_000;

/** A page's short description and the LLM tokens it cost. */
export interface Described {
  description: string;
  tokens: { input: number; output: number };
}

const NONE = { input: 0, output: 0 };

/**
 * A page's description for llms.txt: with an LLM, one sentence it writes from the page; else the
 * page's own meta description, else the first sentence of an extractive summary of its markdown.
 */
export async function describePage(
  page: { title: string; description: string | null; markdown: string },
  llm: LlmTarget | undefined,
  deps: LlmDeps,
): Promise<Described> {
  if (llm && page.markdown.trim()) {
    const result = await complete(
      {
        llm,
        maxTokens: 80,
        messages: [
          { role: "system", content: INSTRUCTIONS },
          { role: "user", content: `# ${page.title}\n\n${page.markdown.slice(0, MAX_INPUT_CHARS)}` },
        ],
      },
      deps,
    );
    const text = oneLine(result.text.split("\n").find((line) => line.trim()) ?? "");
    if (text)
      return { description: text, tokens: { input: result.usage.input, output: result.usage.output } };
  }
  const own = page.description?.trim();
  if (own) return { description: oneLine(own), tokens: NONE };
  return { description: oneLine(extractiveSummary(page.markdown, 1)), tokens: NONE };
}
