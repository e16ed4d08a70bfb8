import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { complete, isLlmProvider, type LlmDeps, type LlmTarget, type Usage } from "../llm/index.ts";
import { extractiveSummary } from "./extractive.ts";

export { extractiveSummary, SUMMARY_MAX_CHARS, SUMMARY_SENTENCES } from "./extractive.ts";

/** A page's summary and how it was made. */
export interface SummaryOutcome {
  summary: string;
  /** "llm" (the caller's or the operator's model) or "extractive" (no LLM: the page's own sentences). */
  method: "llm" | "extractive";
  tokensUsed?: Usage;
}

/** What summarising needs: the LLM module's deps. */
export type SummaryDeps = Pick<LlmDeps, "config" | "signal" | "apiBasePolicy" | "log">;

/** The markdown an LLM summary reads at most (about 12,000 tokens). */
const MAX_INPUT_CHARS = 48_000;

const INSTRUCTIONS =
  "Summarize the web page the user sends in 2 to 4 sentences of plain prose (at most 100 words): " +
  "what it is and its main points. Answer with the summary only, no preamble, no markdown.";

/**
 * The operator's own LLM (SIPHON_LLM_PROVIDER, _API_KEY, _MODEL, _BASE_URL), or undefined when
 * none is configured.
 * @throws SiphonError answer_failed when SIPHON_LLM_PROVIDER names no known vendor
 */
export function serviceLlm(config: Config): LlmTarget | undefined {
  const provider = config.llmProvider.trim();
  if (!provider) return undefined;
  if (!isLlmProvider(provider)) {
    throw new SiphonError(
      "answer_failed",
      `This server's SIPHON_LLM_PROVIDER is "${provider}"; it must be openai, anthropic or google`,
    );
  }
  return {
    provider,
    apiKey: config.llmApiKey || undefined,
    model: config.llmModel || undefined,
    apiBase: config.llmBaseUrl || undefined,
  };
}

/**
 * Summarises a page's markdown: with `llm` (the caller's, or the operator's from serviceLlm)
 * the model writes it; without one it is an extractive summary, the page's most representative
 * sentences (see extractiveSummary). LLM failures are the LLM module's errors (invalid_request
 * for a refused key, rate_limited, answer_failed, network_error, timeout).
 */
export async function summarize(
  page: { markdown: string; title?: string },
  llm: LlmTarget | undefined,
  deps: SummaryDeps,
): Promise<SummaryOutcome> {
  if (!llm) return { summary: extractiveSummary(page.markdown), method: "extractive" };
  const content = page.markdown.slice(0, MAX_INPUT_CHARS);
  const result = await complete(
    {
      llm,
      maxTokens: 400,
      messages: [
        { role: "system", content: INSTRUCTIONS },
        { role: "user", content: page.title ? `# ${page.title}\n\n${content}` : content },
      ],
    },
    deps,
  );
  return { summary: result.text.trim(), method: "llm", tokensUsed: result.usage };
}
