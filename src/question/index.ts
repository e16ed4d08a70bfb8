import { pagePassages } from "../ask/page.ts";
import { complete, type LlmDeps, type LlmTarget, type Usage } from "../llm/index.ts";

/** A question answered from one page, and how. */
export interface QuestionOutcome {
  /** The answer; null when the page has no passage with the question's words (passage answers only). */
  answer: string | null;
  /** "llm" (the caller's or the operator's model) or "passage" (no LLM: the page's most relevant passage, word for word). */
  method: "llm" | "passage";
  tokensUsed?: Usage;
}

/** What answering needs: the LLM module's deps. */
export type QuestionDeps = Pick<LlmDeps, "config" | "signal" | "apiBasePolicy" | "log">;

/** The markdown an LLM reads at most (about 12,000 tokens), as a summary does. */
const MAX_INPUT_CHARS = 48_000;

/** What the model answers when the page does not say; also what tests and callers can look for. */
export const NOT_ON_PAGE = "The page does not say.";

const INSTRUCTIONS =
  "Answer the question at the end of the user's message using only the web page in that message. " +
  "Answer briefly (a sentence or a short paragraph of plain prose, no preamble, no markdown). " +
  `If the page does not answer it, reply exactly: ${NOT_ON_PAGE}`;

/**
 * Answers `question` from a page alone (the question format): with `llm` (the caller's, or the
 * operator's) the model answers from the page's markdown; without one, or when `quote` asks for
 * the page's own words, the answer is the page's most relevant passage (ask's scoring on one
 * page), or null when no passage has the question's words. LLM failures are the LLM module's
 * errors (invalid_request for a refused key, rate_limited, answer_failed, network_error, timeout).
 */
export async function answerFromPage(
  page: { markdown: string; title: string },
  question: { question: string; quote: boolean },
  llm: LlmTarget | undefined,
  deps: QuestionDeps,
): Promise<QuestionOutcome> {
  if (!llm || question.quote) {
    const best = pagePassages(page, question.question, 1)[0];
    return { answer: best ? best.text : null, method: "passage" };
  }
  const content = page.markdown.slice(0, MAX_INPUT_CHARS);
  const result = await complete(
    {
      llm,
      maxTokens: 600,
      messages: [
        { role: "system", content: INSTRUCTIONS },
        {
          role: "user",
          content: `${page.title ? `# ${page.title}\n\n` : ""}${content}\n\n---\nQuestion: ${question.question}`,
        },
      ],
    },
    deps,
  );
  return { answer: result.text.trim(), method: "llm", tokensUsed: result.usage };
}
