import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import {
  ARTICLE_SENTENCE,
  type FixtureSite,
  NAV_TEXT,
  SPA_TEXT,
  startFixtureSite,
} from "../helpers/fixture-site.ts";

/** POST /v1/batch/scrape takes every page option a crawl's scrapeOptions takes, at its top level. */

/** Text of the article's blockquote, and of the "Related stories" list main-content extraction drops. */
const QUOTE = "biggest single step the city has taken";
const RELATED = "Related stories";
/** The photo caption: the default page shows it, main content leaves it out (related stories leave both). */
const CAPTION = "An artist's impression of the Riverside solar farm";

let site: FixtureSite;
let app: TestApp;
beforeAll(async () => {
  site = await startFixtureSite();
  // No escalation: a page is rendered only when the batch says so.
  app = await startTestApp({ escalation: false });
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

type Item = Record<string, unknown> & { url: string; content: string };

const post = (body: unknown) =>
  app.request("/v1/batch/scrape", { method: "POST", body: JSON.stringify(body) });

/** Runs a batch to its end and returns its items. */
async function batch(body: Record<string, unknown>): Promise<Item[]> {
  const res = await post(body);
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  for (let i = 0; i < 600; i++) {
    const poll = (await (await app.request(`/v1/batch/scrape/${id}`)).json()) as {
      status: string;
      data: Item[];
    };
    if (poll.status !== "queued" && poll.status !== "processing") {
      expect(poll.status).toBe("completed");
      return poll.data;
    }
    await Bun.sleep(50);
  }
  throw new Error(`batch ${id} did not end`);
}

const one = async (body: Record<string, unknown>) => (await batch(body))[0] as Item;

describe("a batch's page options", () => {
  test("onlyMainContent, excludeTags and formats reach every page", async () => {
    const urls = [`${site.url}/article`, `${site.url}/article?copy=2`];
    const plain = await batch({ urls });
    for (const item of plain) {
      // What the options below must take away is there without them.
      expect(item.content).toContain(QUOTE);
      expect(item.content).toContain(CAPTION);
    }
    const items = await batch({
      urls,
      onlyMainContent: true,
      excludeTags: ["nav", "blockquote"],
      formats: ["markdown", "links"],
    });
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(item.content).toContain(ARTICLE_SENTENCE);
      expect(item.markdown).toBe(item.content);
      for (const gone of [NAV_TEXT, QUOTE, RELATED, CAPTION]) expect(item.content).not.toContain(gone);
      expect(item.links).toContain(`${site.url}/places/old-rail-yards`);
    }
  });

  test("languages and headers go with each page's request", async () => {
    const item = await one({
      urls: [`${site.url}/headers`],
      languages: ["de-CH"],
      headers: { "X-Batch-Probe": "each-page" },
      maxAge: 0,
    });
    // The route answers the request's headers as JSON; the item's content shows it.
    expect(item.content).toMatch(/"accept-language": "de-CH\b/);
    expect(item.content).toContain('"x-batch-probe": "each-page"');
  });

  test("format sets each item's content, alone or before formats", async () => {
    const text = await one({ urls: [`${site.url}/article`], format: "text" });
    expect(text.content).toContain(ARTICLE_SENTENCE);
    expect(text.content).not.toMatch(/^#/m);
    expect(text.text).toBe(text.content);
    expect(text.markdown).toBeUndefined();
    const both = await one({ urls: [`${site.url}/article`], format: "html", formats: ["markdown"] });
    expect(both.content).toStartWith("<");
    expect(both.markdown).toMatch(/^# /m);
  });

  test("a bad page option is a 400 at submit naming it, and no job is made", async () => {
    const before = ((await (await app.request("/v1/jobs")).json()) as { count: number }).count;
    const urls = [`${site.url}/article`];
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ wait: 70_000 }, /^wait must be an integer from 0 to 60000/],
      [{ excludeTags: "nav" }, /^excludeTags must be/],
      [{ location: "Germany" }, /^location /],
      [{ actions: [{ type: "teleport" }] }, /^actions/],
      [{ formats: ["markdown", "pdf"] }, /formats\[1\]: "pdf" is not supported/],
      [{ scrapeOptions: { render: true } }, /scrapeOptions/],
    ];
    for (const [fields, message] of cases) {
      const res = await post({ urls, ...fields });
      expect(res.status).toBe(400);
      const error = await errorOf(res);
      expect(error.type).toBe("invalid_request");
      expect(error.message).toMatch(message);
    }
    expect(((await (await app.request("/v1/jobs")).json()) as { count: number }).count).toBe(before);
  });

  test("render: true renders every page in the browser", async () => {
    const urls = [`${site.url}/spa`];
    expect((await one({ urls })).content).not.toContain(SPA_TEXT);
    const rendered = await one({ urls, render: true });
    expect(rendered.content).toContain(SPA_TEXT);
    expect(rendered.method).toBe("browser");
  }, 60_000);
});
