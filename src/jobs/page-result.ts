import type { FetchResult } from "../schemas/fetch.ts";

/** Cuts content to about `maxTokens` tokens (4 characters each) on a word boundary. */
export function truncateTokens(content: string, maxTokens: number | undefined): string {
  if (!maxTokens) return content;
  const max = maxTokens * 4;
  if (content.length <= max) return content;
  const cut = content.lastIndexOf(" ", max);
  return content.slice(0, cut > max / 2 ? cut : max).trimEnd();
}

/**
 * A crawl item (SPEC: url, title, markdown, links) plus metadata and status, and whatever else
 * scrapeOptions.formats asked for (html, text, rawHtml, images, screenshot, summary, branding,
 * changeTracking), and `json` when scrapeOptions extract.
 */
export function crawlItem(result: FetchResult) {
  const { html, text, rawHtml, images, screenshot, warning, json, extractTokensUsed } = result;
  const { summary, summaryTokensUsed, branding, changeTracking, source, chunks } = result;
  return {
    url: result.url,
    title: result.title,
    markdown: result.markdown ?? result.content,
    links: result.links,
    metadata: result.metadata,
    statusCode: result.statusCode,
    ...Object.fromEntries(
      Object.entries({
        html,
        text,
        rawHtml,
        images,
        screenshot,
        warning,
        source,
        chunks,
        json,
        extractTokensUsed,
        summary,
        summaryTokensUsed,
        branding,
        changeTracking,
      }).filter(([, v]) => v !== undefined),
    ),
  };
}

/** A batch item (SPEC: url, content and further fetch-result fields). */
export function batchItem(result: FetchResult, maxTokens: number | undefined) {
  const content = truncateTokens(result.content, maxTokens);
  return { ...result, content, tokens: Math.ceil(content.length / 4) };
}
