import { Type as T } from "@sinclair/typebox";
import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import {
  completeStructured,
  type JsonSchema,
  type LlmDeps,
  type LlmTarget,
  type Usage,
} from "../llm/index.ts";
import { LlmFieldsOptional } from "../schemas/llm.ts";
import { validate } from "../schemas/validate.ts";
import { serviceLlm } from "../summary/index.ts";
import type { SitemapUse } from "./sitemap.ts";

/** The LLM fields beside a crawl prompt, checked as every request's are. */
const PromptLlm = T.Object(LlmFieldsOptional, { additionalProperties: false });

/** The crawl options a sentence is turned into: what the crawl takes, in siphon's names. */
export interface PromptedCrawl {
  /** Regular expressions on the URL path; only matching URLs are crawled (none: every path). */
  includePaths: string[];
  /** Regular expressions on the URL path; matching URLs are skipped. */
  excludePaths: string[];
  /** Link hops from the start page, 0 to 20. */
  maxDepth: number;
  /** Most pages, 1 to 10,000. */
  limit: number;
  allowSubdomains: boolean;
  sitemap: SitemapUse;
}

/** The LLM fields a request may carry (the caller's model, for the prompt). */
export interface PromptLlmFields {
  llmProvider?: LlmTarget["provider"];
  llmApiKey?: string;
  llmModel?: string;
  llmApiBase?: string;
}

const MAX_DEPTH = 20;
const MAX_LIMIT = 10_000;
const MAX_PATTERNS = 20;

const SCHEMA: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["includePaths", "excludePaths", "maxDepth", "limit", "allowSubdomains", "sitemap"],
  properties: {
    includePaths: { type: "array", items: { type: "string" } },
    excludePaths: { type: "array", items: { type: "string" } },
    maxDepth: { type: "integer" },
    limit: { type: "integer" },
    allowSubdomains: { type: "boolean" },
    sitemap: { type: "string", enum: ["include", "skip", "only"] },
  },
};

const INSTRUCTIONS = `You turn a request to crawl a website into crawl options, as JSON.
- includePaths: JavaScript regular expressions tested against the URL path (e.g. "^/blog/"); only matching pages are crawled. [] for every path.
- excludePaths: regular expressions on the path for pages to skip (e.g. "^/tag/", "/page/\\\\d+"). [] for none.
- maxDepth: link hops from the start page, 0 to ${MAX_DEPTH} (use 3 unless the request says how deep).
- limit: most pages, 1 to ${MAX_LIMIT} (use 100 unless the request says how many).
- allowSubdomains: true only when the request asks for subdomains too.
- sitemap: "include" (default), "only" when the request asks for the sitemap's pages alone, "skip" when it asks not to use the sitemap.
Answer with the JSON object only.`;

/**
 * The LLM a crawl prompt uses: the request's own (a provider or a key names one), else the
 * operator's (SIPHON_LLM_*). Throws invalid_request when there is neither: a prompt has no
 * reading without a model.
 */
export function promptLlm(fields: PromptLlmFields, config: Config): LlmTarget {
  if (fields.llmProvider !== undefined || fields.llmApiKey !== undefined) {
    return {
      provider: fields.llmProvider ?? "openai",
      apiKey: fields.llmApiKey,
      model: fields.llmModel,
      apiBase: fields.llmApiBase,
    };
  }
  const operator = serviceLlm(config);
  if (operator) return operator;
  throw new SiphonError("invalid_request", "A crawl prompt needs an LLM, and none is set", {
    hint: "Give llmProvider and llmApiKey (CLI: --llm, --llm-key), set SIPHON_LLM_PROVIDER on the server, or give includePaths, excludePaths, maxDepth and limit yourself.",
  });
}

/** A pattern the crawl can compile, or undefined (a model may write something no engine reads). */
function usablePattern(pattern: unknown): string | undefined {
  if (typeof pattern !== "string" || !pattern.trim() || pattern.length > 500) return undefined;
  try {
    new RegExp(pattern);
    return pattern;
  } catch {
    return undefined;
  }
}

const clamp = (value: unknown, min: number, max: number, fallback: number) =>
  typeof value === "number" && Number.isFinite(value)
    ? Math.min(max, Math.max(min, Math.round(value)))
    : fallback;

/**
 * Turns a sentence ("the blog posts of 2024, not the tag pages, at most 50") into crawl options
 * for the site at `url`, with the LLM: include and exclude path patterns, depth, limit, subdomains
 * and sitemap use. What the model writes is checked: patterns that do not compile are dropped,
 * numbers are brought within the crawl's bounds. Throws the LLM module's errors (invalid_request
 * for a refused key, rate_limited, answer_failed, network_error, timeout).
 */
export async function crawlFromPrompt(
  request: { url: string; prompt: string },
  llm: LlmTarget,
  deps: LlmDeps,
): Promise<{ params: PromptedCrawl; tokensUsed: Usage }> {
  const result = await completeStructured<Record<string, unknown>>(
    {
      llm,
      schema: SCHEMA,
      schemaName: "crawl_options",
      maxTokens: 600,
      messages: [
        { role: "system", content: INSTRUCTIONS },
        { role: "user", content: `Site: ${request.url}\nRequest: ${request.prompt}` },
      ],
    },
    deps,
  );
  const data = result.data;
  const patterns = (value: unknown) =>
    (Array.isArray(value) ? value : [])
      .map(usablePattern)
      .filter((p): p is string => p !== undefined)
      .slice(0, MAX_PATTERNS);
  const sitemap = data.sitemap === "only" || data.sitemap === "skip" ? data.sitemap : "include";
  return {
    params: {
      includePaths: patterns(data.includePaths),
      excludePaths: patterns(data.excludePaths),
      maxDepth: clamp(data.maxDepth, 0, MAX_DEPTH, 3),
      limit: clamp(data.limit, 1, MAX_LIMIT, 100),
      allowSubdomains: data.allowSubdomains === true,
      sitemap,
    },
    tokensUsed: result.usage,
  };
}

/** What a crawl request with a prompt becomes: its options filled from the prompt, and those options. */
export interface PromptedRequest {
  /** The request without its prompt and LLM fields, each option the prompt gave set where the request set none. */
  body: Record<string, unknown>;
  /** What the prompt gave (null without a prompt): shown to the caller before or as the crawl starts. */
  params: PromptedCrawl | null;
}

const PROMPT_FIELDS = ["prompt", "llmProvider", "llmApiKey", "llmModel", "llmApiBase"] as const;
const MAX_PROMPT_CHARS = 2_000;

/**
 * Reads a crawl request's `prompt` (with its LLM fields, else the operator's LLM): the options
 * it gives fill those the request leaves out (an option the request sets wins), and the
 * prompt and LLM fields leave the request, so the stored job holds neither. A request without
 * a prompt comes back as it was. Throws invalid_request for a prompt that is empty or longer
 * than 2,000 characters, or when there is no LLM; the LLM module's errors.
 */
export async function applyCrawlPrompt(
  raw: unknown,
  deps: LlmDeps & { config: Config },
): Promise<PromptedRequest> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    return { body: raw as Record<string, unknown>, params: null };
  const given = raw as Record<string, unknown>;
  if (given.prompt === undefined) return { body: given, params: null };
  const prompt = given.prompt;
  if (typeof prompt !== "string" || !prompt.trim() || prompt.length > MAX_PROMPT_CHARS) {
    throw new SiphonError(
      "invalid_request",
      `prompt must be a sentence of 1 to ${MAX_PROMPT_CHARS} characters`,
    );
  }
  if (typeof given.url !== "string") throw new SiphonError("invalid_request", "url is required");
  const body: Record<string, unknown> = { ...given };
  for (const key of PROMPT_FIELDS) delete body[key];
  const fields: Record<string, unknown> = {};
  for (const key of PROMPT_FIELDS.slice(1)) if (given[key] !== undefined) fields[key] = given[key];
  const llm = promptLlm(validate(PromptLlm, fields), deps.config);
  const { params } = await crawlFromPrompt({ url: given.url, prompt }, llm, deps);
  for (const [key, value] of Object.entries(params)) {
    const empty = Array.isArray(value) && value.length === 0;
    if (body[key] === undefined && !empty) body[key] = value;
  }
  return { body, params };
}
