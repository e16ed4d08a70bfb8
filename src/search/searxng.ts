import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { ImageResult, NewsResult } from "../schemas/search.ts";
import { SEARXNG_CATEGORIES, withOperators } from "./categories.ts";
import { callProvider, isWebUrl, type ProviderCall, parseJson, plainText } from "./http.ts";
import type { Region } from "./regions.ts";
import type { ProviderQuery, SearchProvider, WebHit } from "./types.ts";

const LABEL = "SearXNG";
const TIME_RANGES = { d: "day", w: "week", m: "month", y: "year" } as const;

type Json = Record<string, unknown>;
const object = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);
const text = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);
/** SearXNG passes engines' protocol-relative image links (//host/x.jpg) through as they are. */
const absolute = (value: unknown): string | undefined => {
  const url = text(value);
  return url?.startsWith("//") ? `https:${url}` : url;
};

/** SearXNG's language parameter: a locale such as de-DE, or a bare language. */
function language(region: Region): string | undefined {
  const language = region.language ?? region.impliedLanguage;
  if (!language) return undefined;
  return region.country ? `${language}-${region.country.toUpperCase()}` : language;
}

/** "1920 x 1080" (SearXNG's resolution field) to a width and height. */
function dimensions(resolution: unknown): { width: number | null; height: number | null } {
  const match = typeof resolution === "string" ? /(\d+)\s*[x×]\s*(\d+)/.exec(resolution) : null;
  return match ? { width: Number(match[1]), height: Number(match[2]) } : { width: null, height: null };
}

/**
 * A self-hosted SearXNG instance's JSON API: GET <SIPHON_SEARXNG_URL>/search
 * with q, format=json, categories, time_range day|week|month|year and
 * language. News and images are its news and images categories.
 */
export function createSearxng(config: Config): SearchProvider {
  const base = config.searxngUrl.replace(/\/+$/, "");

  async function search(query: ProviderQuery, q: string, categories: string): Promise<Json[]> {
    const params = new URLSearchParams({ q, format: "json", categories });
    if (query.freshness) params.set("time_range", TIME_RANGES[query.freshness]);
    const locale = query.region && language(query.region);
    if (locale) params.set("language", locale);
    const call: ProviderCall = {
      label: LABEL,
      setting: "SIPHON_SEARXNG_URL",
      timeoutMs: config.fetchTimeoutMs,
      signal: query.signal,
      config,
    };
    const answer = await callProvider(call, `${base}/search?${params}`, {
      headers: { accept: "application/json" },
    });
    if (answer.status === 429) {
      throw new SiphonError("search_failed", "SearXNG rate-limited siphon (HTTP 429 from its limiter)", {
        hint: "Wait before searching again, or allow siphon's address in the instance's limiter (pass_ip).",
      });
    }
    if (answer.status === 403) {
      throw new SiphonError("search_failed", "SearXNG refused the JSON format (HTTP 403)", {
        hint: "Add json to search.formats in the instance's settings.yml.",
      });
    }
    if (answer.status !== 200) {
      throw new SiphonError("search_failed", `SearXNG answered HTTP ${answer.status}`, {
        hint: "Check SIPHON_SEARXNG_URL and the instance's logs.",
      });
    }
    const json = object(parseJson(call, answer));
    const results = list(json.results);
    // No results because every engine failed (captcha, rate limit, timeout) is a failure, not "nothing found".
    const unresponsive = Array.isArray(json.unresponsive_engines)
      ? json.unresponsive_engines.map((e) => (Array.isArray(e) ? `${e[0]} (${e[1]})` : String(e)))
      : [];
    if (results.length === 0 && unresponsive.length > 0) {
      throw new SiphonError(
        "search_failed",
        `SearXNG found nothing because its engines failed: ${unresponsive.join(", ")}`,
        { hint: "Its engines are being rate-limited or blocked; try again later or enable other engines." },
      );
    }
    return results;
  }

  return {
    name: "searxng",
    label: LABEL,
    needsKey: false,
    checkRegion(region: Region) {
      if (language(region)) return;
      throw new SiphonError("invalid_request", `SearXNG cannot search from "${region.given}"`, {
        hint: "SearXNG narrows results by language and region only: pass country as xx-yy, e.g. de-de.",
      });
    },
    async web(query) {
      // SearXNG's own categories when every one asked for has one; otherwise operators in the query.
      const own = query.categories.map((c) => SEARXNG_CATEGORIES[c]);
      const useOwn = own.length > 0 && own.every(Boolean);
      const results = useOwn
        ? await search(query, query.q, own.join(","))
        : await search(query, withOperators(query.q, query.categories), "general");
      const hits: WebHit[] = [];
      for (const result of results) {
        if (!isWebUrl(result.url)) continue;
        hits.push({ title: plainText(result.title), url: result.url, snippet: plainText(result.content) });
      }
      return hits.slice(0, query.count);
    },
    async news(query) {
      const items: NewsResult[] = [];
      for (const result of await search(query, query.q, "news")) {
        if (!isWebUrl(result.url)) continue;
        items.push({
          title: plainText(result.title),
          url: result.url,
          snippet: plainText(result.content),
          date: text(result.publishedDate) ?? null,
          source: new URL(result.url).hostname,
        });
      }
      return items.slice(0, query.count);
    },
    async images(query) {
      const items: ImageResult[] = [];
      for (const result of await search(query, query.q, "images")) {
        const imageUrl = absolute(result.img_src) ?? absolute(result.thumbnail_src);
        if (!isWebUrl(result.url) || !isWebUrl(imageUrl)) continue;
        items.push({
          title: plainText(result.title),
          url: result.url,
          imageUrl,
          ...dimensions(result.resolution),
        });
      }
      return items.slice(0, query.count);
    },
  };
}
