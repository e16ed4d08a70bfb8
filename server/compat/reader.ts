import { Elysia } from "elysia";
import { SiphonError } from "../../src/errors.ts";
import { pageCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { fetchPage } from "../../src/pipeline/fetch-page.ts";
import { FetchBody } from "../../src/schemas/fetch.ts";
import { validate } from "../../src/schemas/validate.ts";
import { withDeadline } from "../../src/scrape/index.ts";
import { type Guard, metered } from "../guard.ts";

const FORMATS = new Set(["markdown", "html", "text"]);
const DEFAULT_TIMEOUT_S = 30;

/**
 * The target of a reader URL: everything after /r/, query string included, as Jina Reader
 * reads it; percent-encoded (https%3A%2F%2F…) or without a scheme (https:// is assumed).
 */
export function readerTarget(requestUrl: string): string {
  const url = new URL(requestUrl);
  let rest = url.pathname.replace(/^\/r\/?/, "") + url.search;
  if (/^https?%3a/i.test(rest)) {
    try {
      rest = decodeURIComponent(rest);
    } catch {
      // Left as it is: the URL rules refuse it with a reason.
    }
  }
  if (!rest) throw new SiphonError("invalid_request", "Put the page after /r/, e.g. /r/https://example.com/");
  return /^[a-z][a-z0-9+.-]*:/i.test(rest) ? rest : `https://${rest}`;
}

/** Jina Reader's request headers, as fetch options. */
function optionsOf(headers: Headers) {
  const format = (headers.get("x-return-format") ?? "markdown").toLowerCase();
  if (!FORMATS.has(format)) {
    throw new SiphonError(
      "invalid_request",
      `X-Return-Format must be markdown, html or text, not "${format}"`,
    );
  }
  const list = (name: string) =>
    headers
      .get(name)
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const timeout = Number(headers.get("x-timeout") ?? DEFAULT_TIMEOUT_S);
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > 180) {
    throw new SiphonError("invalid_request", "X-Timeout is seconds, from 1 to 180");
  }
  return {
    format,
    includeTags: list("x-target-selector"),
    excludeTags: list("x-remove-selector"),
    noCache: /^(1|true)$/i.test(headers.get("x-no-cache") ?? ""),
    timeoutMs: timeout * 1000,
  };
}

/**
 * GET /r/<url>, Jina Reader's URL form: the page's main content as text/plain (Jina's layout:
 * Title, URL Source, Published Time, Markdown Content), or with Accept: application/json
 * Jina's `{code, status, data: {title, description, url, content, publishedTime?, usage}}`.
 * Headers X-Return-Format (markdown, html, text), X-Target-Selector, X-Remove-Selector,
 * X-No-Cache and X-Timeout (seconds) are read. Metered like a fetch; errors are format B.
 */
export function readerRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "compat:reader" }).get(
    "/r/*",
    async ({ request, set }) => {
      const target = readerTarget(request.url);
      const options = optionsOf(request.headers);
      const input = validate(FetchBody, {
        url: target,
        format: options.format,
        onlyMainContent: true,
        includeTags: options.includeTags,
        excludeTags: options.excludeTags,
        maxAge: options.noCache ? 0 : undefined,
      });
      const json = /application\/json/i.test(request.headers.get("accept") ?? "");
      return metered<unknown>(guard, request, set, "reader", async (admission) => {
        const outcome = await withDeadline(options.timeoutMs, request.signal, (signal) =>
          fetchPage(input, { ...deps, signal, httpOnly: admission?.softLimited }),
        );
        const { result, cache } = outcome;
        set.headers["x-cache"] = cache.hit ? "HIT" : "MISS";
        set.headers["x-fetch-type"] = result.method === "stealth" ? "stealth" : "basic";
        const credits = pageCredits(outcome);
        if (json) {
          const data: Record<string, unknown> = {
            title: result.title,
            description: result.metadata.description ?? "",
            url: result.url,
            content: result.content,
            usage: { tokens: result.tokens },
          };
          if (result.metadata.published) data.publishedTime = result.metadata.published;
          return { body: { code: 200, status: 20000, data }, credits, degraded: outcome.degraded };
        }
        const label =
          options.format === "markdown" ? "Markdown Content" : options.format === "html" ? "HTML" : "Text";
        const lines = [`Title: ${result.title}`, "", `URL Source: ${result.url}`, ""];
        if (result.metadata.published) lines.push(`Published Time: ${result.metadata.published}`, "");
        lines.push(`${label}:`, result.content);
        set.headers["content-type"] = "text/plain; charset=utf-8";
        return { body: lines.join("\n"), credits, degraded: outcome.degraded };
      });
    },
    {
      detail: {
        summary: "Read a page (Jina Reader's URL form)",
        description:
          "GET /r/https://example.com/page: the page's main content as text/plain (Title, URL Source, Markdown Content), or JSON {code, status, data: {title, description, url, content, usage}} with Accept: application/json. X-Return-Format (markdown, html, text), X-Target-Selector, X-Remove-Selector, X-No-Cache, X-Timeout (s). One credit; a cache hit is free.",
      } as never,
    },
  );
}
