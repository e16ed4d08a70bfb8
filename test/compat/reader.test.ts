import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeSearch, RESULT_PAGES, startFakeSearch } from "../helpers/fake-search.ts";
import { DELAYED_TEXT, type FixtureSite, SPA_TEXT, startFixtureSite } from "../helpers/fixture-site.ts";
import { ARTICLE_SENTENCE } from "../helpers/site-pages/article.ts";

/**
 * Jina Reader's interface as its documentation shows it, over raw HTTP: GET /r/<url> with
 * every header Jina defines (honoured, or refused by name), POST / with a url, streaming, and
 * GET /s/<query>.
 */

let site: FixtureSite;
let engines: FakeSearch;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  app = await startTestApp({ escalation: false, fetchTimeoutMs: 5000, duckduckgoUrl: engines.duckduckgoUrl });
});
afterAll(async () => {
  await app.close();
  await engines.stop();
  await site.stop();
});

const read = (path: string, headers: Record<string, string> = {}) =>
  app.request(`/r/${site.url}${path}`, { headers });

async function text(response: Response): Promise<string> {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return response.text();
}

async function data(response: Response): Promise<Record<string, unknown>> {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { code: number; status: number; data: Record<string, unknown> };
  expect(body.code).toBe(200);
  expect(body.status).toBe(20000);
  return body.data;
}

describe("GET /r/<url> headers", () => {
  test("X-Respond-With is X-Return-Format's alias: markdown (content), html, text", async () => {
    const markdown = await text(await read("/article", { "X-Respond-With": "markdown" }));
    expect(markdown).toContain("Markdown Content:");
    expect(markdown).toContain(ARTICLE_SENTENCE);
    const plain = await text(await read("/article", { "X-Respond-With": "text" }));
    expect(plain).toContain("Text:");
    expect(plain).not.toContain("](");
    const html = await text(await read("/article", { "X-Respond-With": "html" }));
    expect(html).toContain("HTML:");
    expect(html).toContain("<p");
  });

  test("links and images summaries, in the text layout and in JSON", async () => {
    const headers = { "X-With-Links-Summary": "true", "X-With-Images-Summary": "true" };
    const layout = await text(await read("/article", headers));
    expect(layout).toMatch(
      /\nImages:\n- !\[Image 1: Rows of solar panels beside the river\]\(http:\/\/[^)]+\/images\/solar-farm\.jpg\)/,
    );
    expect(layout).toContain("\nLinks/Buttons:\n- [");
    const json = await data(await read("/article", { ...headers, Accept: "application/json" }));
    expect(Object.values(json.images as Record<string, string>)[0]).toEndWith("/images/solar-farm.jpg");
    const links = json.links as Record<string, string>;
    expect(Object.keys(links).length).toBeGreaterThan(2);
    for (const url of Object.values(links)) expect(url).toMatch(/^https?:\/\//);
  });

  test("X-Retain-Images none and alt; X-Max-Output-Tokens cuts; X-Token-Budget refuses past it", async () => {
    const all = await text(await read("/article"));
    expect(all).toContain("![Rows of solar panels beside the river]");
    const none = await text(await read("/article", { "X-Retain-Images": "none" }));
    expect(none).not.toContain("![");
    expect(none).not.toContain("Rows of solar panels beside the river");
    const alt = await text(await read("/article", { "X-Retain-Images": "alt" }));
    expect(alt).not.toContain("![");
    expect(alt).toContain("Rows of solar panels beside the river");
    const cut = await data(
      await read("/article", { "X-Max-Output-Tokens": "20", Accept: "application/json" }),
    );
    expect(String(cut.content).length).toBeLessThanOrEqual(80);
    expect(cut.usage).toEqual({ tokens: 20 });
    const over = await read("/article", { "X-Token-Budget": "10" });
    expect(over.status).toBe(400);
    expect((await errorOf(over)).message).toContain("over X-Token-Budget (10)");
  });

  test("X-Set-Cookie, X-Locale, X-User-Agent and X-Referer reach the site", async () => {
    const echoed = await data(
      await read("/headers", {
        "X-Set-Cookie": "session=abc123; Path=/; HttpOnly, theme=dark; Path=/",
        "X-Locale": "de-CH",
        "X-User-Agent": "ReaderTest/1.0",
        "X-Referer": "https://referrer.test/",
        Accept: "application/json",
        "X-No-Cache": "true",
      }),
    );
    const sent = JSON.parse(String(echoed.content).replace(/^```json\n|\n```$/g, "")) as Record<
      string,
      string
    >;
    expect(sent.cookie).toBe("session=abc123; theme=dark");
    expect(sent["accept-language"]).toStartWith("de-CH");
    expect(sent["user-agent"]).toBe("ReaderTest/1.0");
    expect(sent.referer).toBe("https://referrer.test/");
  });

  test("X-Cache-Tolerance and X-No-Cache decide whether a cached copy answers", async () => {
    const page = `/article?tolerance=${crypto.randomUUID()}`;
    expect((await read(page)).headers.get("x-cache")).toBe("MISS");
    expect((await read(page, { "X-Cache-Tolerance": "3600" })).headers.get("x-cache")).toBe("HIT");
    expect((await read(page, { "X-Cache-Tolerance": "0" })).headers.get("x-cache")).toBe("MISS");
    expect((await read(page, { "X-No-Cache": "true" })).headers.get("x-cache")).toBe("MISS");
  });

  test("headers Jina defines that siphon cannot honour are 400s naming them; unknown X- headers are ignored", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "X-With-Generated-Alt": "true" }, "x-with-generated-alt is not supported"],
      [{ "X-Proxy": "us" }, "x-proxy is not supported"],
      [{ "X-Proxy-Url": "http://proxy.test:8080" }, "x-proxy-url is not supported"],
      [{ "X-Md-Heading-Style": "setext" }, "x-md-heading-style is not supported"],
      [{ "X-Retain-Images": "alt_p" }, "X-Retain-Images is not supported"],
      [{ "X-Respond-With": "vlm" }, "X-Respond-With is not supported"],
      [{ "X-Engine": "cf-browser-rendering" }, "X-Engine is not supported"],
      [{ "X-Respond-With": "screenshot, pageshot" }, "not both"],
    ];
    site.resetHits();
    for (const [headers, message] of cases) {
      const response = await read("/article", headers);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toContain(message);
    }
    expect(site.hits("/article")).toBe(0);
    const fine = await text(
      await read("/article", { "X-Proxy": "none", "X-Md-Heading-Style": "atx", "X-Something-Else": "1" }),
    );
    expect(fine).toContain(ARTICLE_SENTENCE);
  });

  test("Accept: text/event-stream answers the page as an event; POST / and POST /r/ take the url in the body", async () => {
    const stream = await app.request(`/r/${site.url}/article`, { headers: { Accept: "text/event-stream" } });
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const events = (await stream.text()).split("\n\n").filter(Boolean);
    expect(events).toHaveLength(1);
    expect(events[0]).toStartWith("event: data\ndata: ");
    const page = JSON.parse(String(events[0]?.split("data: ")[1])) as { content: string; url: string };
    expect(page.content).toContain(ARTICLE_SENTENCE);
    for (const path of ["/", "/r/"]) {
      const posted = await app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: `${site.url}/article` }),
      });
      expect(await text(posted)).toContain(ARTICLE_SENTENCE);
    }
    const missing = await app.request("/", { method: "POST", body: JSON.stringify({}) });
    expect(missing.status).toBe(400);
  });
});

describe("GET /r/<url> in the browser", () => {
  test("X-Engine: browser renders, X-Wait-For-Selector waits; screenshot as a data: URL, or its bytes with Accept: image/png", async () => {
    const plain = await text(await read("/spa"));
    expect(plain).not.toContain(SPA_TEXT);
    const rendered = await text(await read("/spa", { "X-Engine": "browser" }));
    expect(rendered).toContain(SPA_TEXT);
    const waited = await text(await read("/delayed", { "X-Wait-For-Selector": "#delayed" }));
    expect(waited).toContain(DELAYED_TEXT);
    const shot = await data(
      await read("/article", {
        "X-Respond-With": "screenshot",
        Accept: "application/json",
        "X-No-Cache": "1",
      }),
    );
    expect(String(shot.screenshotUrl)).toStartWith("data:image/png;base64,");
    expect(shot.content).toBeUndefined();
    const bytes = await read("/article", { "X-Respond-With": "pageshot", Accept: "image/png" });
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");

    // A page that needs JavaScript streams the plain answer first, then the rendered one.
    const escalating = await startTestApp({ fetchTimeoutMs: 5000 });
    try {
      const stream = await escalating.request(`/r/${site.url}/spa?stream=${crypto.randomUUID()}`, {
        headers: { Accept: "text/event-stream" },
      });
      const frames = (await stream.text()).split("\n\n").filter(Boolean);
      expect(frames.length).toBe(2);
      const pages = frames.map((frame) => {
        expect(frame).toStartWith("event: data\ndata: ");
        return JSON.parse(frame.slice(frame.indexOf("data: ") + 6)) as { content: string };
      });
      expect(pages[0]?.content).not.toContain(SPA_TEXT);
      expect(pages[1]?.content).toContain(SPA_TEXT);
    } finally {
      await escalating.close();
    }
  }, 60_000);
});

describe("GET /s/<query>", () => {
  test("the top results read as pages, in Jina's text and JSON; site keeps to a site; no-content reads none", async () => {
    const layout = await text(await app.request("/s/solar%20farm?count=2"));
    expect(layout).toContain(`[1] Title: ${RESULT_PAGES[0]?.title}`);
    expect(layout).toContain(`[1] URL Source: ${site.url}${RESULT_PAGES[0]?.path}`);
    expect(layout).toContain("[1] Markdown Content:");
    expect(layout).toContain(ARTICLE_SENTENCE);
    expect(layout).toContain("[2] Title:");
    expect(layout).not.toContain("[3] Title:");
    const json = (await (
      await app.request("/s/?q=solar+farm&count=2", { headers: { Accept: "application/json" } })
    ).json()) as { data: { url: string; content: string }[] };
    expect(json.data.map((entry) => entry.url)).toEqual(
      RESULT_PAGES.slice(0, 2).map((p) => `${site.url}${p.path}`),
    );
    expect(json.data[0]?.content).toContain(ARTICLE_SENTENCE);

    engines.results = [
      { path: "http://docs.example.test/a", title: "A", snippet: "a" },
      { path: "http://other.test/b", title: "B", snippet: "b" },
    ];
    try {
      site.resetHits();
      const kept = (await (
        await app.request("/s/solar?site=example.test", {
          headers: { Accept: "application/json", "X-Respond-With": "no-content" },
        })
      ).json()) as { data: { url: string; content?: string }[] };
      expect(kept.data.map((entry) => entry.url)).toEqual(["http://docs.example.test/a"]);
      expect(kept.data[0]?.content).toBeUndefined();
      expect(site.hits("/article")).toBe(0);
    } finally {
      engines.results = null;
    }
  });
});
