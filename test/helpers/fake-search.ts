/**
 * Fake DuckDuckGo (HTML endpoint), Brave Search API (web, news, images) and
 * SearXNG (JSON API) on one 127.0.0.1 server, speaking each engine's real wire
 * format in shapes recorded from the real services, with their results
 * pointing at the fixture site so scraping works on loopback. Every request is
 * recorded (path, query, form, headers) so tests can check that each parameter
 * arrived in the engine's own dialect.
 *
 * Words in the query choose an answer, so tests need no shared state:
 * - "captcha": DuckDuckGo's bot check page (HTTP 202); SearXNG no results with
 *   every engine unresponsive (CAPTCHA, too many requests).
 * - "ratelimit": DuckDuckGo HTTP 403; Brave HTTP 429 with its rate-limit headers;
 *   SearXNG HTTP 429 from its limiter.
 * - "nothing": each engine's "no results" answer.
 * - "broken": the first web result points at a closed port (its scrape fails).
 * - "leak": Brave answers HTTP 500 with a body echoing the subscription token.
 * - "garbage": DuckDuckGo answers a page that is not its results page.
 * Brave accepts only BRAVE_KEY (401 otherwise) and only its own countries (422).
 * Results are RESULT_PAGES unless a test sets `results` to other fixture-site pages.
 */

export const BRAVE_KEY = "BSAk3y-9f2c1a7d-TEST-0b6e4d2c8a51";

/** The fixture-site pages results point at, in result order (all plain pages that never escalate). */
export const RESULT_PAGES = [
  { path: "/article", title: "City Council Approves Riverside Solar Farm", snippet: "The council voted 7-2" },
  { path: "/docs", title: "Configuring the HTTP client – Docs", snippet: "Timeouts, retries & proxies" },
  { path: "/forum", title: "Forum thread: tide mill restoration", snippet: "Replies from restorers" },
  { path: "/product", title: "Product page", snippet: "A product with a price" },
  { path: "/listing", title: "Listing of recipes", snippet: "Recipes, one per card" },
  { path: "/service", title: "Service page", snippet: "What the service offers" },
  { path: "/plain.txt", title: "Plain text notes", snippet: "A plain text file" },
  { path: "/data.json", title: "Data as JSON", snippet: "Some JSON data" },
  { path: "/feed.xml", title: "News feed", snippet: "An RSS feed" },
  { path: "/", title: "Fixture home", snippet: "The home page" },
  { path: "/sitemap.xml", title: "Sitemap", snippet: "Every page" },
  { path: "/robots.txt", title: "Robots", snippet: "Crawl rules" },
];

/** A result the engines return: a fixture-site path, its title and the engine's snippet. */
export interface ResultPage {
  path: string;
  title: string;
  snippet: string;
}

export const CLOSED_URL = "http://127.0.0.1:1/unreachable";

/** Brave's countries (its `country` parameter); anything else is a 422, as the real API answers. */
const BRAVE_COUNTRIES = new Set(
  "ALL AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NZ NL NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US".split(
    " ",
  ),
);

export interface RecordedRequest {
  engine: "duckduckgo" | "brave" | "searxng";
  method: string;
  path: string;
  /** Query parameters (for DuckDuckGo's POST: the form fields). */
  params: Record<string, string>;
  headers: Record<string, string>;
}

export interface FakeSearch {
  /** Base URLs to put in the config (duckduckgoUrl, braveUrl, searxngUrl). */
  duckduckgoUrl: string;
  braveUrl: string;
  searxngUrl: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The pages every engine returns while set (the query words above still apply); RESULT_PAGES when null. */
  results: readonly ResultPage[] | null;
  /** The requests one engine received. */
  of(engine: RecordedRequest["engine"]): RecordedRequest[];
  clear(): void;
  stop(): Promise<void>;
}

const escapeHtml = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

interface Hit {
  url: string;
  title: string;
  snippet: string;
}

/**
 * The results for `q`: `pages` (RESULT_PAGES unless a test set FakeSearch.results) on `site`, or
 * where a page's path is a whole URL, there (results on other hosts, never fetched).
 */
function hits(site: string, q: string, pages: readonly ResultPage[]): Hit[] {
  const list = pages.map((p) => ({
    url: /^https?:/.test(p.path) ? p.path : `${site}${p.path}`,
    title: p.title,
    snippet: p.snippet,
  }));
  if (/\bbroken\b/.test(q)) list[0] = { url: CLOSED_URL, title: "A page that is gone", snippet: "Gone" };
  return list;
}

/** A word of the query in bold, as engines mark matches in titles and snippets. */
function bold(text: string, q: string, tag: string): string {
  const word = q.split(/\s+/).find((w) => /^[a-z]{3,}$/i.test(w));
  const escaped = escapeHtml(text);
  return word ? escaped.replace(new RegExp(`\\b(${word})\\b`, "i"), `<${tag}>$1</${tag}>`) : escaped;
}

// ---------------------------------------------------------------------------------------------
// DuckDuckGo: html.duckduckgo.com/html/

const rut = () =>
  Array.from({ length: 64 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");
const ddgLink = (url: string) => `//duckduckgo.com/l/?uddg=${encodeURIComponent(url)}&amp;rut=${rut()}`;

function ddgPage(q: string, kl: string, body: string): string {
  return `<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<!--[if IE 6]><html class="ie6" xmlns="http://www.w3.org/1999/xhtml"><![endif]-->
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
  <meta http-equiv="content-type" content="text/html; charset=UTF-8">
  <meta name="viewport" content="width=device-width, initial-scale=1.0, maximum-scale=3.0, user-scalable=1" />
  <meta name="referrer" content="origin" />
  <meta name="HandheldFriendly" content="true" />
  <meta name="robots" content="noindex, nofollow" />
  <title>${escapeHtml(q)} at DuckDuckGo</title>
  <link title="DuckDuckGo (HTML)" type="application/opensearchdescription+xml" rel="search" href="//duckduckgo.com/opensearch_html_v2.xml" />
  <link href="//duckduckgo.com/favicon.ico" rel="shortcut icon" />
  <link rel="stylesheet" media="handheld, all" href="//duckduckgo.com/dist/h.aa6c4c3e29d1e0b4b4d4.css" type="text/css"/>
</head>
<body class="body--html">
  <a name="top" id="top"></a>
  <form action="/html/" method="post">
    <input type="text" name="state_hidden" id="state_hidden" />
  </form>
  <div>
    <div class="site-wrapper-border"></div>
    <div id="header" class="header cw header--html">
      <a title="DuckDuckGo" href="/html/" class="header__logo-wrap"></a>
      <form name="x" class="header__form" action="/html/" method="post">
        <div class="search search--header">
          <input name="q" autocomplete="off" class="search__input" id="search_form_input_homepage" type="text" value="${escapeHtml(q)}" />
          <input name="b" id="search_button_homepage" class="search__button search__button--html" value="" title="Search" alt="Search" type="submit" />
        </div>
        <div class="frm__select">
          <select class="" name="kl"><option value="" >All Regions</option><option value="us-en" ${kl === "us-en" ? "selected" : ""}>US (English)</option><option value="de-de" ${kl === "de-de" ? "selected" : ""}>Germany</option></select>
        </div>
        <div class="frm__select frm__select--last">
          <select class="" name="df"><option value="" selected>Any Time</option><option value="d" >Past Day</option><option value="w" >Past Week</option><option value="m" >Past Month</option><option value="y" >Past Year</option></select>
        </div>
      </form>
    </div>
    <div class="filters">
      <div class="filters__fill"></div>
    </div>
    <div id="links" class="results">
${body}
    </div>
  </div>
</body>
</html>
`;
}

function ddgResults(site: string, q: string, kl: string, pages: readonly ResultPage[]): string {
  const ad = `      <div class="result results_links results_links_deep result--ad result--ad--small">
        <div class="links_main links_deep result__body">
          <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;ad_provider=bingv7aa&amp;ad_type=txad&amp;u3=https%3A%2F%2Fwww.bing.com%2Faclick">Buy ${escapeHtml(q)} cheap</a></h2>
          <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="https://duckduckgo.com/y.js?ad_domain=ads.example">ads.example</a><span class="badge--ad">Ad</span></div></div>
          <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Sponsored result.</a>
        </div>
      </div>`;
  const blocks = hits(site, q, pages).map((hit, i) => {
    // Most results link through DuckDuckGo's redirect; now and then one links straight to the page.
    const href = i === 2 ? escapeHtml(hit.url) : ddgLink(hit.url);
    const display = hit.url.replace(/^https?:\/\//, "");
    return `      <div class="result results_links results_links_deep web-result ">
        <div class="links_main links_deep result__body"> <!-- This is the visible part -->
          <h2 class="result__title">
            <a rel="nofollow" class="result__a" href="${href}">${bold(hit.title, q, "b")}</a>
          </h2>
          <div class="result__extras">
            <div class="result__extras__url">
              <span class="result__icon"><a rel="nofollow" href="${href}"><img class="result__icon__img" width="16" height="16" alt="" src="//external-content.duckduckgo.com/ip3/127.0.0.1.ico" name="i15" /></a></span>
              <a class="result__url" href="${href}">${escapeHtml(display)}</a>
            </div>
          </div>
          <a class="result__snippet" href="${href}">${bold(hit.snippet, q, "b")} &amp; more about <b>${escapeHtml(q.split(" ")[0] ?? "")}</b>.</a>
          <div class="clear"></div>
        </div>
      </div>`;
  });
  // DuckDuckGo repeats a result now and then: the second copy is dropped.
  blocks.push(blocks[1]!);
  const next = `      <div class="nav-link">
        <form action="/html/" method="post">
          <input type="submit" class='btn btn--alt' value="Next" />
          <input type="hidden" name="q" value="${escapeHtml(q)}" />
          <input type="hidden" name="s" value="10" />
          <input type="hidden" name="nextParams" value="" />
          <input type="hidden" name="v" value="l" />
          <input type="hidden" name="o" value="json" />
          <input type="hidden" name="dc" value="${blocks.length + 1}" />
          <input type="hidden" name="api" value="d.js" />
          <input type="hidden" name="vqd" value="4-187402830293830293874932740932847302" />
          <input name="kl" value="${escapeHtml(kl || "wt-wt")}" type="hidden" />
        </form>
      </div>`;
  return ddgPage(q, kl, [ad, ...blocks, next].join("\n"));
}

const DDG_NO_RESULTS = (q: string) =>
  ddgPage(
    q,
    "",
    `      <div class="result results_links results_links_deep web-result result--no-result">
        <div class="no-results">No  results.</div>
      </div>`,
  );

/** The bot check DuckDuckGo serves instead of results when it limits a client (HTTP 202). */
const DDG_ANOMALY = (q: string) => `<!DOCTYPE html>
<html lang="en-US">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>DuckDuckGo</title>
  <link rel="stylesheet" href="/dist/a.2a3f8cbd9f5c4d1e0b6d.css" type="text/css" />
</head>
<body>
  <div class="anomaly-modal__mask">
    <div class="anomaly-modal__modal" data-testid="anomaly-modal">
      <div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
      <div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>
      <div class="anomaly-modal__instructions">Select all squares containing a duck:</div>
      <form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=sre&amp;ti=1731922311&amp;gk=d4cd0dabcf4caa22ad92fab40844c786&amp;p=0a3f1c-4b2e&amp;q=${encodeURIComponent(q)}&amp;o=8wq%2BZ&amp;r=use" method="POST">
        <div class="anomaly-modal__puzzle">
          <div class="anomaly-modal__box"><img class="anomaly-modal__image" src="/assets/anomaly/images/challenge/0a1b.jpg" alt="" /></div>
          <div class="anomaly-modal__box"><img class="anomaly-modal__image" src="/assets/anomaly/images/challenge/2c3d.jpg" alt="" /></div>
          <div class="anomaly-modal__box"><img class="anomaly-modal__image" src="/assets/anomaly/images/challenge/4e5f.jpg" alt="" /></div>
        </div>
        <input type="hidden" name="challenge-submission" value="" />
        <button class="btn anomaly-modal__submit" type="submit">Submit</button>
      </form>
    </div>
  </div>
</body>
</html>
`;

function duckduckgo(site: string, params: Record<string, string>, pages: readonly ResultPage[]): Response {
  const q = params.q ?? "";
  const html = (body: string, code = 200) =>
    new Response(body, { status: code, headers: { "content-type": "text/html; charset=UTF-8" } });
  if (/\bcaptcha\b/.test(q)) return html(DDG_ANOMALY(q), 202);
  if (/\bratelimit\b/.test(q))
    return html(
      "<html><body>If this error persists, please let us know: error-lite@duckduckgo.com</body></html>",
      403,
    );
  if (/\bnothing\b/.test(q)) return html(DDG_NO_RESULTS(q));
  if (/\bgarbage\b/.test(q))
    return html(
      "<html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>",
    );
  return html(ddgResults(site, q, params.kl ?? "", pages));
}

// ---------------------------------------------------------------------------------------------
// Brave Search API: api.search.brave.com/res/v1

const braveError = (status: number, code: string, detail: string, meta: Record<string, unknown> = {}) => ({
  type: "ErrorResponse",
  error: { id: crypto.randomUUID(), status, code, detail, meta },
  time: Math.floor(Date.now() / 1000),
});

function metaUrl(url: string) {
  const u = new URL(url);
  return {
    scheme: u.protocol.replace(":", ""),
    netloc: u.host,
    hostname: u.hostname,
    favicon: `https://imgs.search.brave.com/${btoa(u.host).slice(0, 12)}/rs:fit:32:32:1:0/g:ce/favicon.ico`,
    path: u.pathname === "/" ? "" : `› ${u.pathname.slice(1).split("/").join(" › ")}`,
  };
}

function brave(
  site: string,
  path: string,
  params: Record<string, string>,
  headers: Headers,
  pages: readonly ResultPage[],
): Response {
  const q = params.q ?? "";
  const count = Math.min(Number(params.count ?? 20), 20);
  const json = (body: unknown, status = 200, extra: Record<string, string> = {}) =>
    Response.json(body, { status, headers: { "content-type": "application/json", ...extra } });
  const token = headers.get("x-subscription-token");
  if (token !== BRAVE_KEY) {
    return json(
      braveError(401, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.", {
        component: "authentication",
      }),
      401,
    );
  }
  if (/\bratelimit\b/.test(q)) {
    return json(
      braveError(429, "RATE_LIMITED", "Request rate limit exceeded for plan.", {
        plan: "Free",
        rate_limit: 1,
        rate_current: 2,
        quota_limit: 2000,
        quota_current: 15,
        component: "rate_limiter",
      }),
      429,
      {
        "x-ratelimit-limit": "1, 2000",
        "x-ratelimit-policy": "1;w=1, 2000;w=2592000",
        "x-ratelimit-remaining": "0, 1985",
        "x-ratelimit-reset": "1, 1419704",
      },
    );
  }
  if (/\bleak\b/.test(q)) {
    return new Response(`upstream proxy error for token ${token}: connection reset`, { status: 500 });
  }
  if (params.country && !BRAVE_COUNTRIES.has(params.country)) {
    return json(
      braveError(422, "VALIDATION", "Unable to validate request parameter(s)", {
        errors: [
          {
            type: "enum",
            loc: ["query", "country"],
            msg: `Input should be ${[...BRAVE_COUNTRIES].map((c) => `'${c}'`).join(", ")}`,
            input: params.country,
            ctx: { expected: [...BRAVE_COUNTRIES].join(", ") },
          },
        ],
      }),
      422,
    );
  }
  const found = /\bnothing\b/.test(q) ? [] : hits(site, q, pages).slice(0, count);
  const query = {
    original: q,
    show_strict_warning: false,
    is_navigational: false,
    is_news_breaking: false,
    spellcheck_off: true,
    country: (params.country ?? "us").toLowerCase(),
    bad_results: false,
    should_fallback: false,
    postal_code: "",
    city: headers.get("x-loc-city") ?? "",
    header_country: headers.get("x-loc-country") ?? "",
    more_results_available: found.length > 0,
    state: headers.get("x-loc-state-name") ?? "",
  };
  if (path.endsWith("/web/search")) {
    const results = found.map((hit, i) => ({
      title: bold(hit.title, q, "strong"),
      url: hit.url,
      is_source_local: false,
      is_source_both: false,
      description: `${bold(hit.snippet, q, "strong")} &amp; what&#x27;s new.`,
      page_age: `2026-11-${String(10 + i).padStart(2, "0")}T08:30:00`,
      profile: {
        name: "Fixture",
        url: hit.url,
        long_name: new URL(hit.url).host,
        img: "https://imgs.search.brave.com/x/favicon.ico",
      },
      language: "en",
      family_friendly: true,
      type: "search_result",
      subtype: "generic",
      is_live: false,
      meta_url: metaUrl(hit.url),
      age: `November ${10 + i}, 2026`,
    }));
    // Brave leaves the web object out when it found nothing.
    return json({
      query,
      mixed: {
        type: "mixed",
        main: results.map((_, index) => ({ type: "web", index, all: false })),
        top: [],
        side: [],
      },
      type: "search",
      ...(results.length ? { web: { type: "search", results, family_friendly: true } } : {}),
    });
  }
  if (path.endsWith("/news/search")) {
    return json({
      type: "news",
      query: { original: q, spellcheck_off: true },
      results: found.map((hit, i) => ({
        type: "news_result",
        title: bold(`${hit.title} (news)`, q, "strong"),
        url: hit.url,
        description: `${bold(hit.snippet, q, "strong")}, reported today.`,
        age: `${i + 1} hours ago`,
        page_age: `2026-11-18T${String(11 - i).padStart(2, "0")}:00:00`,
        breaking: false,
        thumbnail: { src: `https://imgs.search.brave.com/news-${i}.jpg` },
        meta_url: metaUrl(hit.url),
        extra_snippets: [],
      })),
    });
  }
  if (path.endsWith("/images/search")) {
    return json({
      type: "images",
      query: { original: q, spellcheck_off: true },
      results: found.map((hit, i) => ({
        type: "image_result",
        title: `${hit.title} photo`,
        url: hit.url,
        source: new URL(hit.url).host,
        page_fetched: "2026-11-01T10:00:00Z",
        thumbnail: { src: `https://imgs.search.brave.com/thumb-${i}.jpg`, width: 500, height: 375 },
        properties: {
          url: `${site}/images/photo-${i}.jpg`,
          placeholder: `https://imgs.search.brave.com/ph-${i}.jpg`,
          width: 1600,
          height: 1200 - i,
        },
        meta_url: metaUrl(hit.url),
        confidence: "high",
      })),
    });
  }
  return json(braveError(404, "RESOURCE_NOT_FOUND", "Resource not found."), 404);
}

// ---------------------------------------------------------------------------------------------
// SearXNG: <instance>/search?format=json

function searxng(site: string, params: Record<string, string>, pages: readonly ResultPage[]): Response {
  const q = params.q ?? "";
  if (params.format !== "json")
    return new Response("<h1>403 Forbidden</h1>", { status: 403, headers: { "content-type": "text/html" } });
  if (/\bratelimit\b/.test(q))
    return new Response("Too Many Requests", { status: 429, headers: { "content-type": "text/plain" } });
  const categories = (params.categories ?? "general").split(",");
  const base = {
    query: q,
    number_of_results: 0,
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [`${q} history`],
    unresponsive_engines: [] as [string, string][],
  };
  if (/\bcaptcha\b/.test(q)) {
    return Response.json({
      ...base,
      results: [],
      unresponsive_engines: [
        ["google", "CAPTCHA"],
        ["duckduckgo", "too many requests"],
      ],
    });
  }
  const found = /\bnothing\b/.test(q) ? [] : hits(site, q, pages);
  const parsed = (url: string) => {
    const u = new URL(url);
    return [u.protocol.replace(":", ""), u.host, u.pathname, "", u.search.replace("?", ""), ""];
  };
  let results: Record<string, unknown>[];
  if (categories.includes("images")) {
    results = found.map((hit, i) => ({
      template: "images.html",
      url: hit.url,
      title: `${hit.title} photo`,
      content: "",
      img_src: `${site}/images/photo-${i}.jpg`,
      thumbnail_src: `//tse2.mm.bing.net/th?id=OIP.${i}`,
      resolution: `${1600 - i} x 1200`,
      img_format: "jpeg",
      engine: "bing images",
      parsed_url: parsed(hit.url),
      engines: ["bing images"],
      positions: [i + 1],
      score: 1 / (i + 1),
      category: "images",
    }));
    // Engines return torrents and data: URLs as well; those are not web pages.
    results.push({
      template: "images.html",
      url: "magnet:?xt=urn:btih:0",
      title: "torrent",
      img_src: "data:image/png;base64,AA",
      engine: "x",
      category: "images",
    });
  } else {
    const category = categories.includes("news") ? "news" : (categories[0] ?? "general");
    results = found.map((hit, i) => ({
      url: hit.url,
      title: hit.title,
      content: `${hit.snippet} &amp; more.`,
      publishedDate: category === "news" ? `2026-11-18T${String(11 - i).padStart(2, "0")}:00:00` : null,
      thumbnail: "",
      engine: category === "news" ? "bing news" : "duckduckgo",
      template: "default.html",
      parsed_url: parsed(hit.url),
      img_src: "",
      priority: "",
      engines: category === "news" ? ["bing news"] : ["duckduckgo", "brave", "startpage"],
      positions: [i + 1],
      score: 3 / (i + 1),
      category,
    }));
  }
  return Response.json({ ...base, number_of_results: results.length, results });
}

// ---------------------------------------------------------------------------------------------

/** Starts the fake engines on 127.0.0.1; results point at `site` (the fixture site's origin). */
export function startFakeSearch(site: string): FakeSearch {
  const requests: RecordedRequest[] = [];
  let results: readonly ResultPage[] | null = null;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const params: Record<string, string> = Object.fromEntries(url.searchParams);
      if (request.method === "POST") {
        const form = new URLSearchParams(await request.text());
        Object.assign(params, Object.fromEntries(form));
      }
      const engine = url.pathname.startsWith("/duckduckgo")
        ? "duckduckgo"
        : url.pathname.startsWith("/brave")
          ? "brave"
          : "searxng";
      requests.push({
        engine,
        method: request.method,
        path: url.pathname,
        params,
        headers: Object.fromEntries(request.headers),
      });
      const pages = results ?? RESULT_PAGES;
      if (engine === "duckduckgo") return duckduckgo(site, params, pages);
      if (engine === "brave") return brave(site, url.pathname, params, request.headers, pages);
      return searxng(site, params, pages);
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    duckduckgoUrl: `${origin}/duckduckgo/html/`,
    braveUrl: `${origin}/brave/res/v1`,
    searxngUrl: `${origin}/searxng`,
    requests,
    get results() {
      return results;
    },
    set results(pages) {
      results = pages;
    },
    of: (engine) => requests.filter((r) => r.engine === engine),
    clear: () => {
      requests.length = 0;
    },
    stop: () => server.stop(true),
  };
}
