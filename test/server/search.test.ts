import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { SearchResponse } from "../../src/schemas/search.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import {
  BRAVE_KEY,
  CLOSED_URL,
  type FakeSearch,
  RESULT_PAGES,
  startFakeSearch,
} from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_SENTENCE } from "../helpers/site-pages/article.ts";
import { DOCS_TITLE } from "../helpers/site-pages/docs.ts";
import { NAV_TEXT } from "../helpers/site-pages/layout.ts";

let site: FixtureSite;
let engines: FakeSearch;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  // Escalation off: result pages are plain fixture pages, and no test here should start Chromium.
  app = await startTestApp({
    duckduckgoUrl: engines.duckduckgoUrl,
    braveUrl: engines.braveUrl,
    searxngUrl: engines.searxngUrl,
    escalation: false,
    fetchTimeoutMs: 3000,
  });
});
afterAll(async () => {
  await app.close();
  await engines.stop();
  await site.stop();
});
beforeEach(() => engines.clear());

/** Every response and error body of this file, to check the key never shows in one. */
const seen: string[] = [];

async function search(params: Record<string, string>, headers: Record<string, string> = {}, on = app) {
  const res = await on.request(`/v1/search?${new URLSearchParams(params)}`, { headers });
  const text = await res.clone().text();
  seen.push(text, JSON.stringify([...res.headers]));
  return res;
}

async function ok(res: Response): Promise<SearchResponse["data"]> {
  const body = (await res.json()) as SearchResponse;
  expect({ status: res.status, success: body.success }).toEqual({ status: 200, success: true });
  return body.data;
}

const only = (engine: "duckduckgo" | "brave" | "searxng") => {
  const requests = engines.of(engine);
  expect(requests).toHaveLength(1);
  return requests[0]!;
};

describe("GET /v1/search with DuckDuckGo (the default)", () => {
  test("reads the HTML results: redirect links decoded, ads and repeats dropped, count kept", async () => {
    const data = await ok(await search({ q: "tide mills", count: "4" }));
    expect(data.web.map((r) => r.url)).toEqual(RESULT_PAGES.slice(0, 4).map((p) => `${site.url}${p.path}`));
    expect(data.web[1]).toEqual({
      title: RESULT_PAGES[1]!.title,
      url: `${site.url}/docs`,
      snippet: "Timeouts, retries & proxies & more about tide.",
    });
    expect(data.news).toBeUndefined();
    expect(data.images).toBeUndefined();
    // Default count is 5; DuckDuckGo's page holds more.
    expect((await ok(await search({ q: "tide mills" }))).web).toHaveLength(5);
    expect((await ok(await search({ q: "tide mills", count: "10" }))).web).toHaveLength(10);
  });

  test("every parameter reaches DuckDuckGo in its dialect: form q with operators, kl, df", async () => {
    await ok(await search({ q: "tide mills", tbs: "qdr:w", country: "de-de", categories: "github" }));
    const request = only("duckduckgo");
    expect(request.method).toBe("POST");
    expect(request.params).toEqual({ q: "tide mills site:github.com", kl: "de-de", df: "w" });
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.headers["user-agent"]).toContain("Mozilla/5.0");

    engines.clear();
    await ok(
      await search({
        q: "tide",
        tbs: "qdr:y",
        location: "Munich, Bavaria, Germany",
        categories: "pdf,video",
      }),
    );
    expect(only("duckduckgo").params).toEqual({
      q: "tide (filetype:pdf OR site:youtube.com OR site:vimeo.com)",
      kl: "de-de",
      df: "y",
    });
    engines.clear();
    await ok(await search({ q: "tide", location: "United Kingdom", tbs: "qdr:d" }));
    expect(only("duckduckgo").params).toEqual({ q: "tide", kl: "uk-en", df: "d" });
    engines.clear();
    await ok(await search({ q: "tide", tbs: "qdr:m" }));
    expect(only("duckduckgo").params).toEqual({ q: "tide", df: "m" });
  });

  test("news and images, and regions it does not have, are a 400 naming DuckDuckGo", async () => {
    for (const sources of ["news", "web,images"]) {
      const res = await search({ q: "tide", sources });
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.type).toBe("invalid_request");
      expect(error.message).toMatch(/^DuckDuckGo has no (news|images) search/);
    }
    const region = await errorOf(await search({ q: "tide", country: "ke-sw" }));
    expect(region.message).toBe('DuckDuckGo has no region for "ke-sw"');
    expect(engines.requests).toHaveLength(0);
  });

  test("its bot check (captcha) page and a 403 are search_failed saying DuckDuckGo rate-limited us", async () => {
    for (const q of ["tide captcha", "tide ratelimit"]) {
      const res = await search({ q });
      expect(res.status).toBe(500);
      const error = await errorOf(res);
      expect(error.type).toBe("search_failed");
      expect(error.message).toMatch(/^DuckDuckGo rate-limited siphon/);
      expect(error.message).not.toMatch(/no results/i);
    }
    expect((await errorOf(await search({ q: "tide captcha" }))).message).toContain("captcha");
  });

  test("its no-results page is an empty list; a page that is not its results page is a failure", async () => {
    expect((await ok(await search({ q: "nothing at all" }))).web).toEqual([]);
    const error = await errorOf(await search({ q: "garbage" }));
    expect(error.type).toBe("search_failed");
    expect(error.message).toContain("neither results nor its no-results notice");
  });
});

describe("GET /v1/search with Brave", () => {
  test("web, news and images: each endpoint gets the key, count, country, language, freshness", async () => {
    const data = await ok(
      await search(
        {
          q: "tide mills",
          provider: "brave",
          sources: "web,news,images",
          count: "3",
          country: "uk-en",
          tbs: "qdr:d",
        },
        { "x-search-api-key": BRAVE_KEY },
      ),
    );
    const byPath = Object.fromEntries(engines.of("brave").map((r) => [r.path, r]));
    expect(Object.keys(byPath).sort()).toEqual([
      "/brave/res/v1/images/search",
      "/brave/res/v1/news/search",
      "/brave/res/v1/web/search",
    ]);
    for (const request of Object.values(byPath)) {
      expect(request.method).toBe("GET");
      expect(request.headers["x-subscription-token"]).toBe(BRAVE_KEY);
      expect(request.headers.accept).toBe("application/json");
      expect(request.params).toMatchObject({ q: "tide mills", count: "3", country: "GB", search_lang: "en" });
    }
    expect(byPath["/brave/res/v1/web/search"]!.params.freshness).toBe("pd");
    expect(byPath["/brave/res/v1/news/search"]!.params.freshness).toBe("pd");
    // Brave's image search has no time filter.
    expect(byPath["/brave/res/v1/images/search"]!.params.freshness).toBeUndefined();

    expect(data.web).toHaveLength(3);
    // Brave marks matches with <strong> and escapes apostrophes: the snippet is plain text.
    expect(data.web[0]).toEqual({
      title: RESULT_PAGES[0]!.title,
      url: `${site.url}/article`,
      snippet: "The council voted 7-2 & what's new.",
    });
    expect(data.news?.[0]).toEqual({
      title: `${RESULT_PAGES[0]!.title} (news)`,
      url: `${site.url}/article`,
      snippet: "The council voted 7-2, reported today.",
      date: "2026-11-18T11:00:00",
      source: new URL(site.url).host,
    });
    expect(data.news).toHaveLength(3);
    expect(data.images?.[1]).toEqual({
      title: `${RESULT_PAGES[1]!.title} photo`,
      url: `${site.url}/docs`,
      imageUrl: `${site.url}/images/photo-1.jpg`,
      width: 1600,
      height: 1199,
    });
  });

  test("categories become operators in q; location becomes country and Brave's X-Loc headers", async () => {
    await ok(
      await search({
        q: "tide",
        provider: "brave",
        searchApiKey: BRAVE_KEY,
        categories: "github,docs",
        location: "Austin, Texas, US",
        tbs: "qdr:y",
      }),
    );
    const request = only("brave");
    expect(request.params).toEqual({
      q: "tide (site:github.com OR intitle:documentation OR intitle:docs)",
      count: "5",
      country: "US",
      freshness: "py",
    });
    expect(request.headers).toMatchObject({
      "x-loc-city": "Austin",
      "x-loc-state-name": "Texas",
      "x-loc-country": "US",
    });
  });

  test("searchApiKey wins over the header; the operator's key is used when the caller brings none", async () => {
    await ok(
      await search(
        { q: "tide", provider: "brave", searchApiKey: BRAVE_KEY },
        { "x-search-api-key": "other" },
      ),
    );
    expect(only("brave").headers["x-subscription-token"]).toBe(BRAVE_KEY);

    const missing = await errorOf(await search({ q: "tide", provider: "brave" }));
    expect(missing.type).toBe("invalid_request");
    expect(missing.message).toBe("Brave Search needs an API key and none was given");

    const operated = await startTestApp({
      braveUrl: engines.braveUrl,
      braveApiKey: BRAVE_KEY,
      searchProvider: "brave",
    });
    try {
      engines.clear();
      expect((await ok(await search({ q: "tide" }, {}, operated))).web).toHaveLength(5);
      expect(only("brave").headers["x-subscription-token"]).toBe(BRAVE_KEY);
      // The caller's own key comes first, even when the operator has one.
      const own = await search({ q: "tide" }, { "x-search-api-key": "BSA-callers-own-key" }, operated);
      expect((await errorOf(own)).message).toStartWith("Brave Search refused the key");
    } finally {
      await operated.close();
    }
  });

  test("a refused key and a rate limit are search_failed naming Brave and what to do", async () => {
    const refused = await search(
      { q: "tide", provider: "brave" },
      { "x-search-api-key": "BSA-wrong-key-0000" },
    );
    expect(refused.status).toBe(500);
    const body = (await refused.json()) as { error: { type: string; message: string; hint: string } };
    expect(body.error.type).toBe("search_failed");
    expect(body.error.message).toBe(
      "Brave Search refused the key (HTTP 401 SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.)",
    );
    expect(body.error.hint).toContain("x-search-api-key");
    expect(JSON.stringify(body)).not.toContain("BSA-wrong-key-0000");

    const limited = await search({ q: "tide ratelimit", provider: "brave", searchApiKey: BRAVE_KEY });
    expect(limited.status).toBe(500);
    const limit = (await limited.json()) as { error: { type: string; message: string; hint: string } };
    expect(limit.error.message).toBe(
      "Brave Search rate-limited this key (HTTP 429 RATE_LIMITED: Request rate limit exceeded for plan.)",
    );
    expect(limit.error.hint).toContain("retry in 1 s");
  });

  test("a country Brave does not take is a 400 with Brave's reason", async () => {
    const error = await errorOf(
      await search({ q: "tide", provider: "brave", searchApiKey: BRAVE_KEY, country: "ke-sw" }),
    );
    expect(error.type).toBe("invalid_request");
    expect(error.message).toStartWith("Brave Search refused a parameter (HTTP 422 VALIDATION");
    expect(error.message).toContain("query,country");
  });

  test("a key Brave echoes back is masked in the error", async () => {
    const error = await errorOf(await search({ q: "tide leak", provider: "brave", searchApiKey: BRAVE_KEY }));
    expect(error.type).toBe("search_failed");
    expect(error.message).toContain("upstream proxy error for token [redacted]");
  });
});

describe("GET /v1/search with SearXNG", () => {
  test("q, format=json, categories, time_range and language reach the instance", async () => {
    const data = await ok(
      await search({ q: "tide", provider: "searxng", country: "de-de", tbs: "qdr:m", count: "2" }),
    );
    expect(only("searxng")).toMatchObject({
      method: "GET",
      path: "/searxng/search",
      params: { q: "tide", format: "json", categories: "general", time_range: "month", language: "de-DE" },
    });
    expect(data.web).toEqual([
      { title: RESULT_PAGES[0]!.title, url: `${site.url}/article`, snippet: "The council voted 7-2 & more." },
      {
        title: RESULT_PAGES[1]!.title,
        url: `${site.url}/docs`,
        snippet: "Timeouts, retries & proxies & more.",
      },
    ]);

    // Its own categories where it has them; operators where one of them has none.
    engines.clear();
    await ok(await search({ q: "tide", provider: "searxng", categories: "github,social", tbs: "qdr:d" }));
    expect(only("searxng").params).toEqual({
      q: "tide",
      format: "json",
      categories: "repos,social media",
      time_range: "day",
    });
    engines.clear();
    await ok(
      await search({ q: "tide", provider: "searxng", categories: "github,pdf", location: "Paris, France" }),
    );
    expect(only("searxng").params).toEqual({
      q: "tide (site:github.com OR filetype:pdf)",
      format: "json",
      categories: "general",
      language: "fr-FR",
    });
  });

  test("news and images come from its news and images categories", async () => {
    const data = await ok(
      await search({ q: "tide", provider: "searxng", sources: "news,images", count: "2" }),
    );
    expect(
      engines
        .of("searxng")
        .map((r) => r.params.categories)
        .sort(),
    ).toEqual(["images", "news"]);
    expect(data.web).toEqual([]);
    expect(data.news?.[1]).toEqual({
      title: RESULT_PAGES[1]!.title,
      url: `${site.url}/docs`,
      snippet: "Timeouts, retries & proxies & more.",
      date: "2026-11-18T10:00:00",
      source: "127.0.0.1",
    });
    expect(data.images).toEqual([
      {
        title: `${RESULT_PAGES[0]!.title} photo`,
        url: `${site.url}/article`,
        imageUrl: `${site.url}/images/photo-0.jpg`,
        width: 1600,
        height: 1200,
      },
      {
        title: `${RESULT_PAGES[1]!.title} photo`,
        url: `${site.url}/docs`,
        imageUrl: `${site.url}/images/photo-1.jpg`,
        width: 1599,
        height: 1200,
      },
    ]);
  });

  test("engines that all failed, its limiter, and no instance configured are errors saying so", async () => {
    const failed = await errorOf(await search({ q: "tide captcha", provider: "searxng" }));
    expect(failed.type).toBe("search_failed");
    expect(failed.message).toBe(
      "SearXNG found nothing because its engines failed: google (CAPTCHA), duckduckgo (too many requests)",
    );
    const limited = await errorOf(await search({ q: "tide ratelimit", provider: "searxng" }));
    expect(limited.message).toBe("SearXNG rate-limited siphon (HTTP 429 from its limiter)");
    expect((await ok(await search({ q: "nothing", provider: "searxng" }))).web).toEqual([]);

    const bare = await startTestApp({});
    try {
      const error = await errorOf(await search({ q: "tide", provider: "searxng" }, {}, bare));
      expect(error.type).toBe("invalid_request");
      expect(error.message).toBe("provider searxng is not set up on this server");
    } finally {
      await bare.close();
    }
  });
});

describe("scrapeResults", () => {
  test("fetches every web result through the pipeline and adds its main content as markdown", async () => {
    const res = await search({ q: "tide", count: "3", scrapeResults: "true" });
    const data = await ok(res);
    expect(data.web.map((r) => r.url)).toEqual(RESULT_PAGES.slice(0, 3).map((p) => `${site.url}${p.path}`));
    const [article, docs, forum] = data.web;
    expect(article?.content).toContain(ARTICLE_SENTENCE);
    // onlyMainContent: the whole page's "Related stories" list is not part of it.
    expect(article?.content).not.toContain("Related stories");
    expect(article?.content).not.toContain(NAV_TEXT);
    expect(docs?.content).toStartWith(`# ${DOCS_TITLE}`);
    expect(forum?.content?.length).toBeGreaterThan(100);
    for (const result of data.web) expect(result.error).toBeUndefined();
  });

  test("a result that fails gets content null and its error; the others are still there", async () => {
    const data = await ok(await search({ q: "tide broken", count: "2", scrapeResults: "true" }));
    expect(data.web[0]).toMatchObject({ url: CLOSED_URL, content: null, error: { type: "network_error" } });
    expect(data.web[0]?.error?.message).toContain("refused the connection");
    expect(data.web[1]?.content).toStartWith(`# ${DOCS_TITLE}`);
  });

  test("credits: one per search plus one per page fetched; cache hits and failures cost nothing", async () => {
    // A fresh server, so no page is in its cache yet.
    const fresh = await startTestApp({ duckduckgoUrl: engines.duckduckgoUrl, escalation: false });
    try {
      const auth = { authorization: `Bearer ${(await fresh.createKey("pro")).key}` };
      const plain = await search({ q: "credits", count: "3" }, auth, fresh);
      expect(plain.headers.get("x-credits-used")).toBe("1");
      expect(plain.headers.get("x-fetch-type")).toBe("search");
      const scraping = { q: "credits", count: "3", scrapeResults: "true" };
      const first = await search(scraping, auth, fresh);
      expect((await ok(first)).web.every((r) => r.content)).toBe(true);
      expect(first.headers.get("x-credits-used")).toBe("4");
      // The same pages again: all from the cache.
      const again = await search(scraping, auth, fresh);
      expect(again.headers.get("x-credits-used")).toBe("1");
      // A page that failed was not fetched: no credit.
      const broken = await search({ q: "credits broken", count: "1", scrapeResults: "true" }, auth, fresh);
      expect((await ok(broken)).web[0]?.content).toBeNull();
      expect(broken.headers.get("x-credits-used")).toBe("1");
      expect(broken.headers.get("x-weekly-used")).toBe("7");
      // A failed search costs nothing.
      const failed = await search({ q: "credits captcha" }, auth, fresh);
      expect(failed.status).toBe(500);
      expect(failed.headers.get("x-credits-used")).toBe("0");
    } finally {
      await fresh.close();
    }
  });
});

describe("includeDomains and excludeDomains, on every engine", () => {
  const SPREAD = [
    { path: "http://docs.example.test/guide", title: "Guide", snippet: "The guide" },
    { path: "http://www.example.test/blog", title: "Blog", snippet: "The blog" },
    { path: "http://other.test/page", title: "Other", snippet: "Elsewhere" },
    { path: "http://notexample.test/x", title: "Look-alike", snippet: "Not the same site" },
    { path: "http://spam.example.test/ad", title: "Spam", snippet: "An ad" },
  ];
  const engineOf = {
    duckduckgo: {},
    brave: { provider: "brave", searchApiKey: BRAVE_KEY },
    searxng: { provider: "searxng" },
  };

  for (const [engine, params] of Object.entries(engineOf) as [
    keyof typeof engineOf,
    Record<string, string>,
  ][]) {
    test(`${engine}: results kept to the included sites (subdomains too) and away from the excluded ones`, async () => {
      engines.results = SPREAD;
      try {
        const data = await ok(
          await search({
            q: "tide",
            count: "10",
            includeDomains: "example.test,https://Other.test/anything",
            excludeDomains: "spam.example.test",
            ...params,
          }),
        );
        expect(data.web.map((r) => r.url)).toEqual([
          "http://docs.example.test/guide",
          "http://www.example.test/blog",
          "http://other.test/page",
        ]);
        const q = only(engine).params.q;
        // DuckDuckGo and Brave document site: and -site:; SearXNG's engines may not, so its results are filtered only.
        if (engine === "searxng") expect(q).toBe("tide");
        else expect(q).toBe("tide (site:example.test OR site:other.test) -site:spam.example.test");
      } finally {
        engines.results = null;
      }
    });
  }

  test("excludeDomains alone drops a site; a bad or contradictory domain is a 400 before any search", async () => {
    engines.results = SPREAD;
    try {
      const data = await ok(await search({ q: "tide", count: "10", excludeDomains: "example.test" }));
      expect(data.web.map((r) => r.url)).toEqual(["http://other.test/page", "http://notexample.test/x"]);
      expect(only("duckduckgo").params.q).toBe("tide -site:example.test");
    } finally {
      engines.results = null;
    }
    engines.clear();
    for (const [params, message] of [
      [{ includeDomains: "not a domain" }, 'includeDomains.0: "not a domain" is not a domain'],
      [{ includeDomains: "a.test", excludeDomains: "A.test" }, "a.test is in both"],
    ] as const) {
      const res = await search({ q: "tide", ...params });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toContain(message);
    }
    expect(engines.requests).toHaveLength(0);
  });
});

describe("bad parameters are a 400 naming them", () => {
  test.each([
    [{ q: "x".repeat(501) }, "q must be at most 500 characters"],
    [{}, "q is required"],
    [{ q: "   " }, "q must not be empty"],
    [{ q: "tide", count: "0" }, "count must be an integer from 1 to 10"],
    [{ q: "tide", count: "11" }, "count must be an integer from 1 to 10"],
    [{ q: "tide", count: "many" }, "count must be an integer from 1 to 10"],
    [{ q: "tide", provider: "google" }, "provider must be one of duckduckgo, brave, searxng"],
    [{ q: "tide", sources: "web,maps" }, "sources.1 must be one of web, news, images"],
    [
      { q: "tide", categories: "papers" },
      "categories.0 must be one of github, pdf, docs, blog, news, video, social",
    ],
    [{ q: "tide", tbs: "qdr:h" }, "tbs must be one of qdr:d, qdr:w, qdr:m, qdr:y"],
    [{ q: "tide", country: "germany" }, "country has an invalid format"],
    [{ q: "tide", country: "zz-zz" }, 'country "zz-zz" names no country siphon knows'],
    [{ q: "tide", location: "Atlantis" }, 'location "Atlantis" does not end with a country siphon knows'],
    [{ q: "tide", country: "us-en", location: "Berlin, Germany" }, "name different countries"],
    [{ q: "tide", scrapeResults: "maybe" }, "scrapeResults must be true or false"],
    [{ q: "tide", wat: "1" }, 'unknown field "wat"'],
  ])("%j", async (params, message) => {
    const res = await search(params as Record<string, string>);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.type).toBe("invalid_request");
    expect(error.message).toContain(message);
    expect(engines.requests).toHaveLength(0);
  });
});

describe("OpenAPI", () => {
  test("documents GET /v1/search: summary, description, every parameter, the response", async () => {
    const doc = (await (await app.request("/docs/json")).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            summary: string;
            description: string;
            parameters: { name: string; in: string }[];
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const op = doc.paths["/v1/search"]?.get;
    expect(op?.summary).toBe("Search the web");
    expect(op?.description).toContain("scrapeResults");
    expect(op?.parameters.map((p) => p.name)).toEqual([
      "q",
      "provider",
      "searchApiKey",
      "count",
      "scrapeResults",
      "sources",
      "categories",
      "includeDomains",
      "excludeDomains",
      "tbs",
      "country",
      "location",
      "x-search-api-key",
    ]);
    expect(Object.keys(op?.responses ?? {})).toEqual(["200", "400", "401", "429", "500"]);
  });
});

test("the key never appears in any response, header or error body of this file", () => {
  expect(seen.length).toBeGreaterThan(30);
  for (const text of seen) {
    expect(text).not.toContain(BRAVE_KEY);
    expect(text).not.toContain("BSA-wrong-key-0000");
  }
});
