import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { ImageResult, NewsResult } from "../schemas/search.ts";
import { withOperators } from "./categories.ts";
import { withDomainOperators } from "./domains.ts";
import {
  callProvider,
  isWebUrl,
  type ProviderAnswer,
  type ProviderCall,
  parseJson,
  plainText,
  redact,
} from "./http.ts";
import type { Region } from "./regions.ts";
import type { ProviderQuery, SearchProvider, WebHit } from "./types.ts";

const LABEL = "Brave Search";
const KEY_HINT =
  "Pass a valid Brave Search API key in searchApiKey or the x-search-api-key header " +
  "(or set SIPHON_BRAVE_API_KEY on the server).";

type Json = Record<string, unknown>;
const object = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(object) : []);
const text = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);
const int = (value: unknown): number | null =>
  typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;

/** Brave's search_lang codes where they differ from ISO 639-1. */
function braveLanguage(region: Region): string | undefined {
  const { language, country } = region;
  if (!language) return undefined;
  if (language === "ja") return "jp";
  if (language === "no") return "nb";
  if (language === "pt") return country === "br" ? "pt-br" : "pt-pt";
  if (language === "zh") return country === "tw" || country === "hk" ? "zh-hant" : "zh-hans";
  return language;
}

/** Query parameters and headers every Brave endpoint shares: count, country, language, location. */
function common(
  query: ProviderQuery,
  key: string,
): { params: URLSearchParams; headers: Record<string, string> } {
  const params = new URLSearchParams({ count: String(query.count) });
  const headers: Record<string, string> = {
    accept: "application/json",
    "x-subscription-token": key,
  };
  const region = query.region;
  if (region?.country) params.set("country", region.country.toUpperCase());
  const language = region && braveLanguage(region);
  if (language) params.set("search_lang", language);
  // Brave's location headers: results near a place, beside the country.
  if (region?.city || region?.state) {
    // A header carries Latin-1 at most; a name beyond it cannot be sent as written.
    if (/[^\x20-\xFF]/.test(`${region.city ?? ""}${region.state ?? ""}`)) {
      throw new SiphonError("invalid_request", `Brave Search cannot take the place "${region.given}"`, {
        hint: "Brave reads the city and state from HTTP headers: write them in Latin letters.",
      });
    }
    if (region.country) headers["x-loc-country"] = region.country.toUpperCase();
    if (region.city) headers["x-loc-city"] = region.city;
    if (region.state) headers["x-loc-state-name"] = region.state;
  }
  return { params, headers };
}

/** What Brave said about a refused request: "CODE: detail" from its ErrorResponse body, key masked. */
function reason(answer: ProviderAnswer, key: string): string {
  let detail = "";
  try {
    const error = object(object(JSON.parse(answer.text)).error);
    const code = text(error.code);
    const errors = list(object(error.meta).errors)
      .map((e) => [text(e.loc && String(e.loc)), text(e.msg)].filter(Boolean).join(": "))
      .filter(Boolean);
    detail = [code, text(error.detail), ...errors].filter(Boolean).join(": ");
  } catch {
    detail = answer.text.slice(0, 200).replace(/\s+/g, " ").trim();
  }
  return redact(detail ? `HTTP ${answer.status} ${detail}` : `HTTP ${answer.status}`, key);
}

/** Throws the error a non-200 Brave answer means: a refused key, a rate limit, a bad parameter, or a failure. */
function refuse(answer: ProviderAnswer, key: string): never {
  const why = reason(answer, key);
  if (answer.status === 401 || answer.status === 403) {
    throw new SiphonError("search_failed", `Brave Search refused the key (${why})`, { hint: KEY_HINT });
  }
  if (answer.status === 429) {
    // X-RateLimit-Reset: "<seconds to the per-second window's reset>, <seconds to the monthly quota's>".
    const resets = (answer.headers.get("x-ratelimit-reset") ?? "")
      .split(",")
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isFinite(n));
    const remaining = (answer.headers.get("x-ratelimit-remaining") ?? "").split(",").map((s) => s.trim());
    const quotaSpent = remaining[1] === "0";
    const wait = quotaSpent ? resets[1] : resets[0];
    throw new SiphonError("search_failed", `Brave Search rate-limited this key (${why})`, {
      hint:
        (quotaSpent
          ? "The key's monthly quota is spent"
          : "Too many requests per second for the key's plan") +
        (wait !== undefined ? `; Brave says retry in ${wait} s.` : ".") +
        " Slow down, or use a key with a bigger Brave plan.",
    });
  }
  if (answer.status === 422 || answer.status === 400) {
    throw new SiphonError("invalid_request", `Brave Search refused a parameter (${why})`, {
      hint: "Brave takes fewer countries than siphon knows; try another country or provider.",
    });
  }
  throw new SiphonError("search_failed", `Brave Search failed (${why})`, {
    hint: "Try again later, or use another provider.",
  });
}

/**
 * The Brave Search API: GET <SIPHON_BRAVE_URL>/web/search, /news/search and
 * /images/search with the key in X-Subscription-Token; count, country,
 * search_lang, freshness pd|pw|pm|py (web and news), X-Loc-* location headers.
 */
export function createBrave(config: Config): SearchProvider {
  const base = config.braveUrl.replace(/\/+$/, "");

  async function get(
    endpoint: string,
    query: ProviderQuery,
    params: URLSearchParams,
    headers: Record<string, string>,
  ): Promise<Json> {
    const call: ProviderCall = {
      label: LABEL,
      setting: "SIPHON_BRAVE_URL",
      timeoutMs: config.fetchTimeoutMs,
      signal: query.signal,
      config,
      credentialHeaders: ["x-subscription-token"],
    };
    const answer = await callProvider(call, `${base}/${endpoint}?${params}`, { headers });
    const key = query.key ?? "";
    if (answer.status !== 200) refuse(answer, key);
    const json = parseJson(call, answer);
    if (json === null || typeof json !== "object" || Array.isArray(json)) {
      throw new SiphonError(
        "search_failed",
        `Brave Search answered ${endpoint} with JSON that is not an object`,
      );
    }
    return json as Json;
  }

  function prepared(query: ProviderQuery, q: string, withFreshness: boolean) {
    const { params, headers } = common(query, query.key ?? "");
    params.set("q", q);
    if (withFreshness && query.freshness) params.set("freshness", `p${query.freshness}`);
    return { params, headers };
  }

  return {
    name: "brave",
    label: LABEL,
    needsKey: true,
    async web(query) {
      const { params, headers } = prepared(
        query,
        withOperators(withDomainOperators(query.q, query.domains), query.categories),
        true,
      );
      const json = await get("web/search", query, params, headers);
      const hits: WebHit[] = [];
      for (const result of list(object(json.web).results)) {
        if (!isWebUrl(result.url)) continue;
        hits.push({
          title: plainText(result.title),
          url: result.url,
          snippet: plainText(result.description),
        });
      }
      return hits.slice(0, query.count);
    },
    async news(query) {
      const { params, headers } = prepared(query, withDomainOperators(query.q, query.domains), true);
      const json = await get("news/search", query, params, headers);
      const items: NewsResult[] = [];
      for (const result of list(json.results)) {
        if (!isWebUrl(result.url)) continue;
        const meta = object(result.meta_url);
        items.push({
          title: plainText(result.title),
          url: result.url,
          snippet: plainText(result.description),
          date: text(result.page_age) ?? text(result.age) ?? null,
          source: text(meta.netloc) ?? text(meta.hostname) ?? new URL(result.url).hostname,
        });
      }
      return items.slice(0, query.count);
    },
    async images(query) {
      // Brave's image search has no time filter: tbs narrows web and news only.
      const { params, headers } = prepared(query, withDomainOperators(query.q, query.domains), false);
      const json = await get("images/search", query, params, headers);
      const items: ImageResult[] = [];
      for (const result of list(json.results)) {
        const properties = object(result.properties);
        const imageUrl = text(properties.url) ?? text(object(result.thumbnail).src);
        if (!isWebUrl(result.url) || !isWebUrl(imageUrl)) continue;
        items.push({
          title: plainText(result.title),
          url: result.url,
          imageUrl,
          width: int(properties.width),
          height: int(properties.height),
        });
      }
      return items.slice(0, query.count);
    },
  };
}
