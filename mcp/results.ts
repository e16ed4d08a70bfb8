import { type ErrorType, toSiphonError } from "../src/errors.ts";
import type { ToolOutput } from "./types.ts";

/** A tools/call result as the protocol carries it. */
export interface CallResult {
  [key: string]: unknown;
  content: ({ type: "text"; text: string } | { type: "image"; data: string; mimeType: string })[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What a model can do about each kind of failure when the error carries no hint of its own. */
const ADVICE: Partial<Record<ErrorType, string>> = {
  invalid_request: "Fix the argument named above and call again.",
  invalid_url: "Give an absolute http:// or https:// URL of at most 2048 characters, without a #fragment.",
  forbidden_url:
    "siphon does not fetch loopback, private or link-local addresses; use the page's public URL.",
  blocked: "The site refused the request: call again with render: true, or stealth: true.",
  timeout: "The page took too long: call again, or try render: false or a smaller job.",
  network_error: "The site could not be reached: check the host name, or try again later.",
  content_too_large: "The page is larger than siphon reads; try a more specific URL.",
  unsupported_content: "siphon cannot read this kind of document; try another URL.",
  not_found: "Check the id: jobs are kept 24 hours after they end.",
  search_failed: "The search provider failed: try again later or with another provider.",
  answer_failed: "The model failed: check the LLM fields (llmApiKey, llmModel, llmApiBase) and try again.",
  unauthorized: "Send a valid siphon API key (Authorization: Bearer sph_live_…).",
  invalid_token: "The key is unknown or revoked: create a new one with `siphon keys create`.",
  browser_unavailable: "No browser is available here: call again without render, stealth or actions.",
  internal_error: "Something failed inside siphon; calling again may work.",
};

/** The successful result: markdown first, then any images; structuredContent alongside. */
export function toolResult(output: ToolOutput): CallResult {
  const content: CallResult["content"] = [{ type: "text", text: output.text }];
  for (const image of output.images ?? []) content.push({ type: "image", ...image });
  return { content, structuredContent: output.structured };
}

/**
 * A failure as a tool result (isError), never a transport error: the type, the message, what to
 * do next, and for a 429 how long to wait. No structuredContent: it would have to match the
 * tool's output schema, which describes success.
 */
export function errorResult(raw: unknown): CallResult {
  const error = toSiphonError(raw);
  const lines = [`Error (${error.type}): ${error.message}`];
  const advice = error.hint ?? ADVICE[error.type];
  if (advice) lines.push(advice);
  const retryAfter = error.headers["retry-after"];
  if (error.type === "rate_limited" && retryAfter) {
    lines.push(`Wait ${retryAfter} seconds before calling a siphon tool again (retryAfter: ${retryAfter}).`);
  }
  return { content: [{ type: "text", text: lines.join("\n") }], isError: true };
}
