import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Firecrawl, { type ScrapeOptions, SdkError } from "@mendable/firecrawl-js";
import type { BrandingProfile } from "../../src/branding/index.ts";
import type { ChangeReport } from "../../src/changes/index.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import {
  BRAND_BACKGROUND,
  BRAND_CONTENT_IMAGE_PATH,
  BRAND_CUSTOM_META,
  BRAND_DESCRIPTION,
  BRAND_FAVICON_PATH,
  BRAND_FONT,
  BRAND_LINK,
  BRAND_LOGO_PATH,
  BRAND_PRIMARY,
  BRAND_SENTENCE,
  BRAND_TITLE,
  DELAYED_TEXT,
  type FixtureSite,
  FORM_RESULT_PREFIX,
  SUMMARY_FIRST_SENTENCE,
  startFixtureSite,
} from "../helpers/fixture-site.ts";

/**
 * The Firecrawl-compatible scrape driven by Firecrawl's own JS SDK (@mendable/firecrawl-js,
 * its v2 client and its v1 client) against a real server on loopback, the fixture site and a
 * fake OpenAI-compatible LLM as the operator's model.
 */

const LLM_KEY = "operator-key";
const CALLER_KEY = "caller-key";

let site: FixtureSite;
let llm: FakeLlm;
/** Has an operator LLM (the fake). */
let app: TestApp;
/** Has none. */
let plain: TestApp;
let fc: Firecrawl;
let fcPlain: Firecrawl;
let apiUrl: string;
let key: string;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [LLM_KEY, CALLER_KEY] });
  app = await startTestApp({
    escalation: false,
    fetchTimeoutMs: 5000,
    llmProvider: "openai",
    llmApiKey: LLM_KEY,
    openaiBaseUrl: llm.baseUrl("openai"),
  });
  plain = await startTestApp({ escalation: false, fetchTimeoutMs: 5000 });
  apiUrl = app.listen();
  key = (await app.createKey("max")).key;
  fc = new Firecrawl({ apiKey: key, apiUrl });
  fcPlain = new Firecrawl({ apiKey: (await plain.createKey("max")).key, apiUrl: plain.listen() });
});

afterAll(async () => {
  await app.close();
  await plain.close();
  await llm.stop();
  await site.stop();
});

/** The SdkError a call rejects with. */
async function sdkError(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SdkError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe("v2 scrape through the SDK", () => {
  test("markdown of the main content by default, with Firecrawl's metadata keys and every meta tag", async () => {
    const doc = await fc.scrape(`${site.url}/compat/brand`);
    expect(doc.markdown).toContain(BRAND_SENTENCE);
    // onlyMainContent defaults to true: only the article's text, not the photo's caption or the call to action below it.
    expect(doc.markdown).not.toContain("Our refillable paper tins.");
    expect(doc.markdown).not.toContain("Shop the teas");
    expect(doc.html).toBeUndefined();
    const m = doc.metadata as Record<string, unknown>;
    expect(m).toMatchObject({
      title: BRAND_TITLE,
      description: BRAND_DESCRIPTION,
      language: "en-GB",
      keywords: "tea, loose leaf, Bristol",
      robots: "index, follow",
      ogTitle: "Kettle & Co",
      ogSiteName: "Kettle & Co",
      ogLocale: "en_GB",
      ogLocaleAlternate: ["fr_FR", "de_DE"],
      publishedTime: "2025-05-01T08:00:00Z",
      modifiedTime: "2025-06-02T09:30:00Z",
      dcDate: "2025-05-01",
      dcTermsCreated: "2025-04-30",
      favicon: `${site.url}${BRAND_FAVICON_PATH}`,
      url: `${site.url}/compat/brand`,
      sourceURL: `${site.url}/compat/brand`,
      statusCode: 200,
      contentType: "text/html",
      proxyUsed: "basic",
      cacheState: "miss",
      creditsUsed: 1,
      // Every meta tag under its own name.
      [BRAND_CUSTOM_META.name]: BRAND_CUSTOM_META.content,
      "twitter:card": "summary_large_image",
      "og:locale:alternate": ["fr_FR", "de_DE"],
    });
    expect(typeof m.scrapeId).toBe("string");
  });

  test("onlyMainContent false keeps the whole page's content; html, rawHtml, links and images as asked", async () => {
    const doc = await fc.scrape(`${site.url}/compat/brand`, {
      formats: ["markdown", "html", "rawHtml", "links", "images"],
      onlyMainContent: false,
      maxAge: 0,
    });
    // The photo's caption is the page's (main content leaves it out); a lone button is not.
    expect(doc.markdown).toContain("Our refillable paper tins.");
    expect(doc.markdown).not.toContain("Shop the teas");
    expect(doc.html).toContain("<h1>Loose leaf tea, blended by hand</h1>");
    expect(doc.rawHtml).toContain(`<meta name="${BRAND_CUSTOM_META.name}"`);
    expect(doc.links).toContain(`${site.url}/compat/shop`);
    expect(doc.images).toEqual([`${site.url}${BRAND_CONTENT_IMAGE_PATH}`]);
  });
});

describe("formats made from the page", () => {
  test("json with a schema from the operator's LLM (the fake), and from the caller's own when given", async () => {
    llm.reply = () => ({ json: { name: "Kettle & Co", city: "Bristol" } });
    const schema = {
      type: "object",
      properties: { name: { type: "string" }, city: { type: "string" } },
      required: ["name", "city"],
    };
    const before = llm.requests.length;
    const doc = await fc.scrape(`${site.url}/compat/brand`, { formats: [{ type: "json", schema }] });
    expect(doc.json).toEqual({ name: "Kettle & Co", city: "Bristol" });
    const call = llm.requests[before];
    expect(call?.authorization).toBe(`Bearer ${LLM_KEY}`);
    expect(JSON.stringify(call?.messages)).toContain(BRAND_SENTENCE);
    // The caller's own LLM fields win over the operator's.
    const own = await fc.scrape(`${site.url}/compat/brand`, {
      formats: [{ type: "json", schema, prompt: "The shop's name and city" }],
      llmProvider: "openai",
      llmApiKey: CALLER_KEY,
    } as ScrapeOptions);
    expect(own.json).toEqual({ name: "Kettle & Co", city: "Bristol" });
    expect(llm.requests.at(-1)?.authorization).toBe(`Bearer ${CALLER_KEY}`);
  });

  test("summary: the LLM's when there is one, an extractive one without", async () => {
    llm.reply = () => ({ text: "Tide mills turn the tide into flour." });
    const withLlm = await fc.scrape(`${site.url}/compat/summary`, { formats: ["summary"] });
    expect(withLlm.summary).toBe("Tide mills turn the tide into flour.");
    expect(withLlm.markdown).toBeUndefined();
    const extractive = await fcPlain.scrape(`${site.url}/compat/summary`, {
      formats: ["summary", "markdown"],
    });
    expect(extractive.summary?.startsWith(SUMMARY_FIRST_SENTENCE)).toBe(true);
    expect(extractive.summary?.length).toBeLessThan(extractive.markdown?.length ?? 0);
  });

  test("branding from the page's inline and linked CSS and its markup", async () => {
    const doc = await fc.scrape(`${site.url}/compat/brand`, { formats: ["branding"] });
    const branding = doc.branding as unknown as BrandingProfile;
    expect(branding.colorScheme).toBe("light");
    expect(branding.brandName).toBe("Kettle & Co");
    expect(branding.colors).toMatchObject({
      primary: BRAND_PRIMARY,
      background: BRAND_BACKGROUND,
      link: BRAND_LINK,
    });
    expect(branding.typography.fontFamilies).toMatchObject({ primary: "Inter", heading: BRAND_FONT });
    expect(branding.components.buttonPrimary).toMatchObject({
      background: BRAND_PRIMARY,
      borderRadius: "6px",
    });
    expect(branding.images).toEqual({
      logo: `${site.url}${BRAND_LOGO_PATH}`,
      favicon: `${site.url}${BRAND_FAVICON_PATH}`,
      ogImage: `${site.url}/compat/img/og.jpg`,
    });
  });

  test("changeTracking: new, then changed with a git-style diff, then same; a tag keeps its own history", async () => {
    const url = `${site.url}/compat/changing?id=${crypto.randomUUID()}`;
    const format = { type: "changeTracking" as const, modes: ["git-diff" as const] };
    const first = await fc.scrape(url, { formats: ["markdown", format] });
    expect(first.changeTracking).toMatchObject({
      previousScrapeAt: null,
      changeStatus: "new",
      visibility: "visible",
    });
    const second = await fc.scrape(url, { formats: ["markdown", format] });
    const tracking = second.changeTracking as unknown as ChangeReport;
    expect(tracking.changeStatus).toBe("changed");
    expect(Date.parse(tracking.previousScrapeAt ?? "")).toBeGreaterThan(0);
    expect(tracking.diff?.text).toContain("-Price: 12.00 GBP for 100 g");
    expect(tracking.diff?.text).toContain("+Price: 14.50 GBP for 100 g");
    const changes = tracking.diff?.json.files[0]?.chunks[0]?.changes;
    expect(changes).toContainEqual(
      expect.objectContaining({ type: "add", content: "+Price: 14.50 GBP for 100 g" }),
    );
    const third = await fc.scrape(url, { formats: ["markdown", format] });
    expect(third.changeTracking).toMatchObject({ changeStatus: "same" });
    expect((third.changeTracking as Record<string, unknown>).diff).toBeUndefined();
    const tagged = await fc.scrape(url, { formats: [{ ...format, tag: "weekly" } as never] });
    expect(tagged.changeTracking).toMatchObject({ changeStatus: "new" });
    const gone = await fc.scrape(`${site.url}/compat/gone`, { formats: ["changeTracking"] });
    expect(gone.changeTracking).toMatchObject({ changeStatus: "removed" });
  });
});

describe("request options", () => {
  const echoed = async (options: Record<string, unknown>) => {
    const doc = await fc.scrape(`${site.url}/headers`, { formats: ["rawHtml"], ...options } as ScrapeOptions);
    return JSON.parse(doc.rawHtml ?? "{}") as Record<string, string>;
  };

  test("headers, location and mobile reach the target", async () => {
    expect((await echoed({ headers: { "X-Tea": "assam" } }))["x-tea"]).toBe("assam");
    expect(
      (await echoed({ location: { country: "DE", languages: ["de-DE"] } }))["accept-language"],
    ).toContain("de-DE");
    expect((await echoed({ mobile: true }))["user-agent"]).toContain("iPhone");
  });

  test("maxAge and storeInCache: a cached page is free and says when it was cached", async () => {
    const url = `${site.url}/compat/summary?cache=${crypto.randomUUID()}`;
    const first = await fc.scrape(url, {});
    expect(first.metadata).toMatchObject({ cacheState: "miss", creditsUsed: 1 });
    const second = await fc.scrape(url, {});
    expect(second.metadata).toMatchObject({ cacheState: "hit", creditsUsed: 0 });
    expect(Date.parse(String(second.metadata?.cachedAt))).toBeGreaterThan(0);
    expect((await fc.scrape(url, { maxAge: 0 })).metadata).toMatchObject({ cacheState: "miss" });
    const unstored = `${site.url}/compat/summary?cache=${crypto.randomUUID()}`;
    await fc.scrape(unstored, { storeInCache: false });
    expect((await fc.scrape(unstored, {})).metadata).toMatchObject({ cacheState: "miss" });
  });

  test("a scrape that outlives its timeout is the SDK's 408", async () => {
    const started = performance.now();
    const error = await sdkError(fc.scrape(`${site.url}/slow?ms=4000`, { timeout: 1000, maxAge: 0 }));
    expect(error.status).toBe(408);
    expect(error.code).toBe("timeout");
    expect(error.message).toContain("1000 ms");
    expect(performance.now() - started).toBeLessThan(3000);
  });

  test("waitFor renders the page; a screenshot comes as a data: URL (PNG, or JPEG with a quality)", async () => {
    const doc = await fc.scrape(`${site.url}/delayed`, { formats: ["markdown", "screenshot"], waitFor: 800 });
    expect(doc.markdown).toContain(DELAYED_TEXT);
    expect(doc.screenshot?.startsWith("data:image/png;base64,iVBOR")).toBe(true);
    const jpeg = await fc.scrape(`${site.url}/compat/brand`, {
      formats: [{ type: "screenshot", fullPage: true, quality: 60, viewport: { width: 800, height: 600 } }],
    });
    expect(jpeg.screenshot?.startsWith("data:image/jpeg;base64,/9j/")).toBe(true);
  }, 60_000);
});

describe("the v1 client (fc.v1.scrapeUrl)", () => {
  test("formats as strings, json with jsonOptions and extract with extract", async () => {
    llm.reply = () => ({ json: { name: "Kettle & Co" } });
    const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const doc = await fc.v1.scrapeUrl(`${site.url}/compat/brand`, {
      formats: ["markdown", "html", "links", "json"],
      jsonOptions: { schema: schema as never, prompt: "The shop's name" },
    });
    expect(doc.success).toBe(true);
    if (!doc.success) return;
    expect(doc.markdown).toContain(BRAND_SENTENCE);
    expect(doc.html).toContain("<p>Kettle &amp; Co blends");
    expect(doc.links).toContain(`${site.url}/compat/shop`);
    expect(doc.json as unknown).toEqual({ name: "Kettle & Co" });
    expect(doc.metadata).toMatchObject({
      title: BRAND_TITLE,
      sourceURL: `${site.url}/compat/brand`,
      statusCode: 200,
    });
    const extracted = await fc.v1.scrapeUrl(`${site.url}/compat/brand`, {
      formats: ["extract"],
      extract: {
        schema: schema as never,
        systemPrompt: "You read tea shop pages.",
        prompt: "The shop's name",
      },
    });
    expect((extracted.success && extracted.extract) as unknown).toEqual({ name: "Kettle & Co" });
    expect(JSON.stringify(llm.requests.at(-1)?.messages)).toContain("You read tea shop pages.");
  });

  test("v1 change tracking reads changeTrackingOptions; v1 does not reuse the cache by default", async () => {
    const url = `${site.url}/compat/changing?id=${crypto.randomUUID()}`;
    const options = {
      formats: ["markdown", "changeTracking"] as never,
      changeTrackingOptions: { modes: ["git-diff"] },
    };
    const first = await fc.v1.scrapeUrl(url, options as never);
    expect(first.success && first.changeTracking?.changeStatus).toBe("new");
    const second = await fc.v1.scrapeUrl(url, options as never);
    expect(second.success && second.changeTracking?.diff?.text).toContain("+Price: 14.50");
    expect(second.success && second.metadata?.cacheState).toBe("miss");
  });

  test("errors are the v1 client's FirecrawlError with Firecrawl's status", async () => {
    const error = await fc.v1.scrapeUrl("notaurl", {}).catch((e) => e);
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("Status code: 400");
  });
});

describe("formats that read the page: attributes, highlights, question (SDK v2)", () => {
  const page = () => `${site.url}/compat/summary?read=${crypto.randomUUID()}`;

  test("attributes: every value of each selector's attribute, in page order, as the page writes it", async () => {
    const doc = await fc.scrape(`${site.url}/compat/brand`, {
      formats: [
        "markdown",
        {
          type: "attributes",
          selectors: [
            { selector: "a.btn-primary", attribute: "href" },
            { selector: "figure img", attribute: "alt" },
            { selector: "p", attribute: "data-missing" },
          ],
        },
      ],
    });
    expect(doc.attributes).toEqual([
      { selector: "a.btn-primary", attribute: "href", values: ["/compat/shop"] },
      { selector: "figure img", attribute: "alt", values: ["Refillable paper tins of tea"] },
      { selector: "p", attribute: "data-missing", values: [] },
    ]);
    expect(doc.markdown).toContain(BRAND_SENTENCE);
    // Asked for attributes alone, the document holds no markdown or raw HTML the scrape read them from.
    const alone = await fc.scrape(`${site.url}/compat/brand`, {
      formats: [{ type: "attributes", selectors: [{ selector: "h1", attribute: "class" }] }],
    });
    expect(alone.markdown).toBeUndefined();
    expect(alone.rawHtml).toBeUndefined();
    expect(alone.attributes?.[0]?.values).toEqual([]);
  });

  test("highlights: the page's passages about the query, best first, no LLM", async () => {
    llm.requests.length = 0;
    const doc = await fc.scrape(page(), {
      formats: [{ type: "highlights", query: "mill pond water released" }],
    });
    const passages = String(doc.highlights).split("\n\n");
    expect(passages[0]).toContain("the water held in the mill pond is released");
    expect(passages.length).toBeLessThanOrEqual(3);
    expect(doc.markdown).toBeUndefined();
    expect(llm.requests).toHaveLength(0);
  });

  test("question: the operator's LLM answers from the page; without one, the best passage and a warning", async () => {
    llm.requests.length = 0;
    llm.reply = () => ({ text: "In Ireland, in the early Middle Ages." });
    const doc = await fc.scrape(page(), {
      formats: [{ type: "question", question: "Where were the oldest tide mills built?" }],
    });
    expect(doc.answer).toBe("In Ireland, in the early Middle Ages.");
    expect(doc.warning).toBeUndefined();
    const sent = JSON.stringify(llm.requests[0]?.messages);
    expect(sent).toContain("Where were the oldest tide mills built?");
    expect(sent).toContain(SUMMARY_FIRST_SENTENCE);
    llm.reply = () => ({});

    const plainDoc = await fcPlain.scrape(page(), {
      formats: [{ type: "question", question: "Where were the oldest tide mills built?" }],
    });
    expect(plainDoc.answer).toContain("The oldest known tide mills were built in Ireland");
    expect(plainDoc.warning).toContain("most relevant passage");
    const none = await fcPlain.scrape(page(), {
      formats: [{ type: "question", question: "Which airline flies to Lisbon?" }],
    });
    expect(none.answer).toBeUndefined();
    expect(none.warning).toContain("no answer");
  });

  test("the deprecated query format: freeform asks the LLM, directQuote quotes the page", async () => {
    llm.requests.length = 0;
    llm.reply = () => ({ text: "Twice a day." });
    const freeform = await fc.scrape(page(), {
      formats: [{ type: "query", prompt: "How often does a tide mill work?" }],
    });
    expect(freeform.answer).toBe("Twice a day.");
    const quoted = await fc.scrape(page(), {
      formats: [
        { type: "query", prompt: "How many hours does a tide mill work on each tide?", mode: "directQuote" },
      ],
    });
    expect(quoted.answer).toContain("about four hours on each tide");
    expect(llm.requests).toHaveLength(1);
    llm.reply = () => ({});
  });

  test("a bad entry is a 400 naming it, before the page is fetched (raw HTTP: the SDK checks some itself)", async () => {
    site.resetHits();
    const cases: [unknown, string][] = [
      ["question", "the question format is an object"],
      [{ type: "highlights" }, "query is required"],
      [{ type: "attributes", selectors: [{ selector: "a[", attribute: "href" }] }, "is not a CSS selector"],
      [{ type: "attributes", selectors: [] }, "selectors"],
      [{ type: "question", question: "x", extra: 1 }, 'unknown field "extra"'],
    ];
    for (const [entry, message] of cases) {
      const response = await fetch(`${apiUrl}/v2/scrape`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ url: `${site.url}/compat/summary`, formats: [entry] }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { success: boolean; error: string };
      expect(body.success).toBe(false);
      expect(body.error).toContain(message);
    }
    expect(site.hits("/compat/summary")).toBe(0);
  });
});

describe("actions through the SDK: what they make comes back in actions", () => {
  test("write and click, then executeJavascript, scrape, pdf and screenshot, each in its array", async () => {
    const doc = await fc.scrape(`${site.url}/form`, {
      formats: ["markdown"],
      maxAge: 0,
      actions: [
        { type: "scrape" },
        { type: "click", selector: "#q" },
        { type: "write", text: "kettles" },
        { type: "click", selector: "#go" },
        { type: "wait", selector: "#result" },
        { type: "executeJavascript", script: "return document.querySelector('#result').textContent;" },
        { type: "scrape" },
        { type: "pdf", format: "A4", landscape: true },
        { type: "screenshot" },
      ],
    });
    const actions = doc.actions as {
      screenshots: string[];
      scrapes: { url: string; html: string }[];
      javascriptReturns: { type: string; value: unknown }[];
      pdfs: string[];
    };
    expect(actions.javascriptReturns).toEqual([{ type: "string", value: `${FORM_RESULT_PREFIX}kettles` }]);
    expect(actions.scrapes).toHaveLength(2);
    expect(actions.scrapes[0]?.html).not.toContain(`${FORM_RESULT_PREFIX}kettles`);
    expect(actions.scrapes[1]?.html).toContain(`${FORM_RESULT_PREFIX}kettles`);
    expect(actions.pdfs).toHaveLength(1);
    expect(actions.pdfs[0]).toStartWith("data:application/pdf;base64,");
    const pdf = Buffer.from(String(actions.pdfs[0]).split(",")[1] ?? "", "base64");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(actions.screenshots[0]).toStartWith("data:image/png;base64,");
    expect(doc.markdown).toContain(`${FORM_RESULT_PREFIX}kettles`);
  }, 60_000);

  test("a script that throws is a 400 naming the action, not a 500", async () => {
    const error = await sdkError(
      fc.scrape(`${site.url}/form`, {
        maxAge: 0,
        actions: [{ type: "executeJavascript", script: "throw new Error('nothing to click')" }],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain(
      "actions[0] (executeJavascript): the script threw Error: nothing to click",
    );
  }, 60_000);
});

describe("errors, as the SDK sees them", () => {
  test("a bad URL is 400, an unknown format 400 not_implemented, an unknown key 400; origin and integration are fine", async () => {
    const bad = await sdkError(fc.scrape("not a url"));
    expect(bad.status).toBe(400);
    expect(bad.code).toBe("invalid_url");
    const unsupported = await sdkError(
      fc.scrape(`${site.url}/compat/brand`, { formats: ["product"] as never }),
    );
    expect(unsupported.status).toBe(400);
    expect(unsupported.code).toBe("not_implemented");
    expect(unsupported.message).toContain("product");
    const unknown = await sdkError(fc.scrape(`${site.url}/compat/brand`, { zzTypo: true } as ScrapeOptions));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain("zzTypo");
    const feature = await sdkError(fc.scrape(`${site.url}/compat/brand`, { redactPII: true }));
    expect(feature.code).toBe("not_implemented");
    // The SDK adds origin itself; integration and the like are accepted and dropped.
    const fine = await fc.scrape(`${site.url}/compat/brand`, {
      integration: "my-app",
      skipTlsVerification: true,
      removeBase64Images: true,
      blockAds: true,
    });
    expect(fine.markdown).toContain(BRAND_SENTENCE);
  });

  test("a client without a key runs as the local account in optional auth mode, v1's empty Bearer too", async () => {
    const v2 = await new Firecrawl({ apiUrl }).scrape(`${site.url}/compat/brand`);
    expect(v2.markdown).toContain(BRAND_SENTENCE);
    const v1 = await new Firecrawl({ apiUrl }).v1.scrapeUrl(`${site.url}/compat/brand`, {
      formats: ["markdown"],
    });
    expect(v1.success && v1.markdown).toContain(BRAND_SENTENCE);
  });

  test("an unknown key is 401; an unreachable host 500; an SSRF-blocked address 403", async () => {
    // A siphon-shaped key no store knows (a Firecrawl `fc-` key runs as the local account on a loopback daemon).
    const unauthorized = await sdkError(
      new Firecrawl({ apiKey: `sph_live_${"Z".repeat(32)}`, apiUrl }).scrape(`${site.url}/compat/brand`),
    );
    expect(unauthorized.status).toBe(401);
    const unreachable = await sdkError(fc.scrape("http://127.0.0.1:1/", { maxAge: 0 }));
    expect(unreachable.status).toBe(500);
    expect(unreachable.code).toBe("network_error");
    const guarded = await startTestApp({ disableSsrfProtection: false });
    try {
      const guardedFc = new Firecrawl({
        apiKey: (await guarded.createKey("max")).key,
        apiUrl: guarded.listen(),
      });
      const blocked = await sdkError(guardedFc.scrape(`${site.url}/compat/brand`));
      expect(blocked.status).toBe(403);
      expect(blocked.code).toBe("forbidden_url");
    } finally {
      await guarded.close();
    }
  });

  test("raw HTTP: malformed JSON, an unknown /v2 path and a 429 answer Firecrawl's error body", async () => {
    const malformed = await fetch(`${apiUrl}/v2/scrape`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "{bad",
    });
    expect(malformed.status).toBe(400);
    const body = (await malformed.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, code: "invalid_request" });
    expect(String(body.error)).toContain("Malformed JSON");
    expect(malformed.headers.get("x-request-id")).toBeTruthy();
    const unknown = await fetch(`${apiUrl}/v2/deep-research`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, code: "not_found" });
    const limited = await startTestApp({});
    try {
      const free = (await limited.createKey("free")).key;
      const limitedUrl = limited.listen();
      let last: Response | undefined;
      for (let i = 0; i < 26; i++) {
        last = await fetch(`${limitedUrl}/v2/scrape`, {
          method: "POST",
          headers: { authorization: `Bearer ${free}` },
          body: JSON.stringify({ url: "not a url" }),
        });
      }
      expect(last?.status).toBe(429);
      expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await last?.json()).toMatchObject({ success: false, code: "rate_limited" });
    } finally {
      await limited.close();
    }
  });
});

describe("small endpoints", () => {
  test("team credit usage, queue status and concurrency as the v2 and v1 clients read them", async () => {
    const credits = await fc.getCreditUsage();
    expect(credits.planCredits).toBe(6250);
    expect(credits.remainingCredits).toBeGreaterThan(0);
    expect(credits.remainingCredits).toBeLessThan(6250);
    expect(Date.parse(credits.billingPeriodEnd ?? "")).toBeGreaterThan(
      Date.parse(credits.billingPeriodStart ?? ""),
    );
    const queue = await fc.getQueueStatus();
    expect(queue).toMatchObject({
      success: true,
      jobsInQueue: 0,
      activeJobsInQueue: 0,
      waitingJobsInQueue: 0,
    });
    expect(queue.maxConcurrency).toBeGreaterThan(0);
    expect(await fc.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: queue.maxConcurrency });
    const v1 = (await fc.v1.getCreditUsage()) as { success: boolean; data: Record<string, unknown> };
    expect(v1.data.plan_credits).toBe(6250);
    expect(v1.data.remaining_credits).toBe(credits.remainingCredits);
    expect(await fc.v1.getQueueStatus()).toMatchObject({ success: true, jobsInQueue: 0 });
  });

  test("token usage and the weekly history of credits and tokens, by key too, as the clients read them", async () => {
    const own = await plain.createKey("max");
    const fcOwn = new Firecrawl({ apiKey: own.key, apiUrl: plain.listen() });
    const operated = new Firecrawl({ apiKey: key, apiUrl });
    llm.reply = () => ({
      json: { name: "Kettle & Co" },
      usage: { prompt_tokens: 400, completion_tokens: 20 },
    });
    const before = await operated.getTokenUsageHistorical();
    const spentBefore = before.periods.reduce((sum, period) => sum + period.tokensUsed, 0);
    await operated.scrape(`${site.url}/compat/brand?tokens=${crypto.randomUUID()}`, {
      formats: [{ type: "json", schema: { type: "object", properties: { name: { type: "string" } } } }],
    });
    llm.reply = () => ({});
    const after = await operated.getTokenUsageHistorical();
    expect(after.periods.reduce((sum, period) => sum + period.tokensUsed, 0)).toBe(spentBefore + 420);
    const thisWeek = after.periods.at(-1);
    expect(Date.parse(String(thisWeek?.endDate)) - Date.parse(String(thisWeek?.startDate))).toBe(
      7 * 86_400_000,
    );
    const usage = await operated.getTokenUsage();
    expect(usage.remainingTokens).toBe(2_147_483_647);
    const raw = (await (
      await fetch(`${apiUrl}/v2/team/token-usage`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { data: { tokensUsed: number } };
    expect(raw.data.tokensUsed).toBeGreaterThanOrEqual(420);

    // Another account's history holds only its own requests: one fresh scrape, one credit, its key named.
    await fcOwn.scrape(`${site.url}/compat/brand?history=${crypto.randomUUID()}`);
    const byKey = await fcOwn.getCreditUsageHistorical(true);
    expect(byKey.periods).toEqual([expect.objectContaining({ apiKey: own.keyId, creditsUsed: 1 })]);
    const v1 = (await fcOwn.v1.getCreditUsageHistorical()) as { periods: { creditsUsed: number }[] };
    expect(v1.periods.map((period) => period.creditsUsed)).toEqual([1]);
  });

  test("GET /r/<url>: the page's markdown as text/plain, Jina's JSON with Accept: application/json", async () => {
    const text = await fetch(`${apiUrl}/r/${site.url}/compat/brand`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(text.status).toBe(200);
    expect(text.headers.get("content-type")).toContain("text/plain");
    const body = await text.text();
    expect(body).toStartWith(`Title: ${BRAND_TITLE}\n\nURL Source: ${site.url}/compat/brand\n`);
    expect(body).toContain(`Markdown Content:\n`);
    expect(body).toContain(BRAND_SENTENCE);
    const json = await fetch(`${apiUrl}/r/${site.url}/compat/brand`, {
      headers: { authorization: `Bearer ${key}`, accept: "application/json" },
    });
    expect(await json.json()).toMatchObject({
      code: 200,
      status: 20000,
      data: { title: BRAND_TITLE, url: `${site.url}/compat/brand`, description: BRAND_DESCRIPTION },
    });
  });
});
