import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { loadHtml } from "../extract/dom.ts";
import { withOperators } from "./categories.ts";
import { withDomainOperators } from "./domains.ts";
import { callProvider, isWebUrl, type ProviderCall } from "./http.ts";
import { ddgRegionCodes, type Region } from "./regions.ts";
import type { ProviderQuery, SearchProvider, WebHit } from "./types.ts";

const LABEL = "DuckDuckGo";

/** Signs of DuckDuckGo's bot check ("anomaly") page, which it serves instead of results when it limits a client. */
const ANOMALY = /anomaly-modal|id="challenge-form"|anomaly\.js|bots use DuckDuckGo too/i;

function rateLimited(detail: string): SiphonError {
  return new SiphonError(
    "search_failed",
    `DuckDuckGo rate-limited siphon: it answered with ${detail} instead of results`,
    { hint: "Wait a few minutes before searching again, or use provider=brave or provider=searxng." },
  );
}

/** The target of a result link: DuckDuckGo wraps it as //duckduckgo.com/l/?uddg=<encoded>&rut=…. */
function targetOf(href: string | undefined): string | undefined {
  if (!href) return undefined;
  const absolute = href.startsWith("//") ? `https:${href}` : href;
  if (!URL.canParse(absolute)) return undefined;
  const url = new URL(absolute);
  if (url.hostname.endsWith("duckduckgo.com")) {
    // /y.js links are ads; /l/ links carry the result in uddg.
    if (url.pathname === "/l/" || url.pathname === "/l") return url.searchParams.get("uddg") ?? undefined;
    return undefined;
  }
  return absolute;
}

/**
 * Reads DuckDuckGo's HTML results page: `.result` blocks (ads left out) with
 * the title link `a.result__a` and the snippet `.result__snippet`. Throws
 * search_failed for its bot-check page or a 403/429 (rate-limited), another
 * error status, or a page with neither results nor its "no results" notice.
 */
export function parseDuckDuckGo(html: string, status: number): WebHit[] {
  if (status === 429 || status === 403) throw rateLimited(`HTTP ${status}`);
  if (ANOMALY.test(html)) throw rateLimited(`its bot check (a captcha page, HTTP ${status})`);
  if (status !== 200) {
    throw new SiphonError("search_failed", `DuckDuckGo answered HTTP ${status}`, {
      hint: "Try again later, or use another provider.",
    });
  }
  // Bounded like every page siphon parses: a results page nested 200,000 deep cannot overflow a walk.
  const $ = loadHtml(html);
  const hits: WebHit[] = [];
  $(".result").each((_, element) => {
    const block = $(element);
    if (block.hasClass("result--ad")) return;
    const link = block.find("a.result__a").first();
    const url = targetOf(link.attr("href"));
    if (!isWebUrl(url)) return;
    hits.push({
      title: link.text().replace(/\s+/g, " ").trim(),
      url,
      snippet: block.find(".result__snippet").first().text().replace(/\s+/g, " ").trim(),
    });
  });
  if (hits.length === 0 && $(".no-results").length === 0 && $("#links").length === 0) {
    throw new SiphonError(
      "search_failed",
      "DuckDuckGo answered a page with neither results nor its no-results notice",
      { hint: "Check SIPHON_DUCKDUCKGO_URL (DuckDuckGo's HTML endpoint), or use another provider." },
    );
  }
  return hits;
}

/**
 * DuckDuckGo's HTML endpoint (no key): a POST form with q, kl (region) and
 * df (d|w|m|y). It has no news or image search there.
 */
export function createDuckDuckGo(config: Config): SearchProvider {
  return {
    name: "duckduckgo",
    label: LABEL,
    needsKey: false,
    checkRegion(region: Region) {
      if (region.ddg) return;
      throw new SiphonError("invalid_request", `DuckDuckGo has no region for "${region.given}"`, {
        hint: `Its regions (country): ${ddgRegionCodes().join(", ")}; or use provider=brave or searxng.`,
      });
    },
    async web(query: ProviderQuery) {
      const form = new URLSearchParams({
        q: withOperators(withDomainOperators(query.q, query.domains), query.categories),
      });
      if (query.region?.ddg) form.set("kl", query.region.ddg);
      if (query.freshness) form.set("df", query.freshness);
      const call: ProviderCall = {
        label: LABEL,
        setting: "SIPHON_DUCKDUCKGO_URL",
        timeoutMs: config.fetchTimeoutMs,
        signal: query.signal,
        config,
      };
      const answer = await callProvider(call, config.duckduckgoUrl, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "user-agent": config.userAgent,
          accept: "text/html,application/xhtml+xml",
        },
        body: form.toString(),
      });
      const seen = new Set<string>();
      return parseDuckDuckGo(answer.text, answer.status)
        .filter((hit) => !seen.has(hit.url) && seen.add(hit.url))
        .slice(0, query.count);
    },
  };
}
