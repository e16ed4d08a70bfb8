import { SiphonError } from "../errors.ts";
import { type LlmDeps, schemaIssues } from "../llm/index.ts";
import type { ExtractResult } from "../schemas/extract.ts";
import { allowNulls, fillSchema, findStructured, groupByType, groupSources } from "./heuristics/index.ts";
import { extractWithLlm } from "./llm.ts";
import type { ExtractRequest } from "./request.ts";
import { applySelectors } from "./selectors.ts";

export { type ExtractRequest, extractRequest, type LlmFields } from "./request.ts";

/** A fetched page as extraction reads it: its HTML (for structured data and selectors) and main content. */
export interface PageForExtraction {
  url: string;
  title: string;
  html: string;
  markdown: string;
}

/** Everything structured on a page, grouped by type (GET /v1/extract/auto). */
export function extractAuto(page: PageForExtraction): ExtractResult {
  const found = findStructured(page.html, page.url, page.markdown);
  return { url: page.url, data: groupByType(found), method: "heuristic", sources: groupSources(found) };
}

/**
 * Extracts from one page: selectors (no LLM) -> the LLM path when the request has one (schema
 * and/or prompt, validated and repaired) -> otherwise the heuristic path (the page's JSON-LD,
 * microdata, RDFa, OpenGraph, tables and patterns mapped onto the schema; null for what was not
 * found; `sources` names each field's signal). A heuristic result is checked against the schema
 * with every property allowed null; a result that still fails is an internal error, never data
 * that breaks the caller's schema.
 */
export async function extractPage(
  page: PageForExtraction,
  request: ExtractRequest,
  llmDeps: LlmDeps,
): Promise<ExtractResult> {
  if (request.selectors) {
    return {
      url: page.url,
      data: applySelectors(page.html, page.url, request.selectors),
      method: "selectors",
    };
  }
  if (request.llm) {
    const result = await extractWithLlm(page, request, request.llm, llmDeps);
    return {
      url: page.url,
      data: result.data,
      method: "llm",
      tokensUsed: { input: result.usage.input, output: result.usage.output },
    };
  }
  const schema = request.schema as Record<string, unknown>;
  const { data, sources } = fillSchema(
    schema,
    findStructured(page.html, page.url, page.markdown),
    page.markdown,
  );
  const issues = await schemaIssues(allowNulls(schema), data);
  if (issues.length) {
    throw new SiphonError(
      "internal_error",
      `The heuristic result does not match the schema: ${issues.join("; ")}`,
    );
  }
  return { url: page.url, data, method: "heuristic", sources };
}
