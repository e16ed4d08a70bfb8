import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import {
  CHALLENGE_ARTICLE_TEXT,
  FIRST_VISIT_TEXT,
  type FixtureSite,
  FORM_RESULT_PREFIX,
  RETURN_VISIT_TEXT,
  SPA_TEXT,
  startFixtureSite,
} from "../helpers/fixture-site.ts";
import { imageSize } from "../helpers/images.ts";

let site: FixtureSite;
let app: TestApp;
let noEscalation: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp();
  noEscalation = await startTestApp({ escalation: false });
}, 60_000);
afterAll(async () => {
  await app.close();
  await noEscalation.close();
  await site.stop();
});

const postFetch = (a: TestApp, body: Record<string, unknown>) =>
  a.request("/v1/fetch", { method: "POST", body: JSON.stringify({ maxAge: 0, format: "text", ...body }) });

async function resultOf(res: Response): Promise<FetchResult> {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as FetchResult;
}

describe("automatic escalation", () => {
  test("a page that needs JavaScript is rendered without being asked", async () => {
    const result = await resultOf(await postFetch(app, { url: `${site.url}/spa` }));
    expect(result.method).toBe("browser");
    expect(result.content).toContain(SPA_TEXT);
  }, 60_000);

  test("a JavaScript bot wall is passed by escalating to stealth", async () => {
    const result = await resultOf(await postFetch(app, { url: `${site.url}/js-challenge` }));
    expect(result.method).toBe("stealth");
    expect(result.content).toContain(CHALLENGE_ARTICLE_TEXT);
  }, 60_000);

  test("a wall no browser passes stays 403 blocked", async () => {
    const res = await postFetch(app, { url: `${site.url}/status/403-botwall` });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).type).toBe("blocked");
  }, 60_000);

  test("with escalation off, the HTTP-only answer says it is degraded", async () => {
    const res = await postFetch(noEscalation, { url: `${site.url}/spa` });
    const result = await resultOf(res);
    expect(result.method).toBe("simple");
    expect(result.content).not.toContain(SPA_TEXT);
    expect(res.headers.get("x-degraded")).toMatch(/JavaScript/);
  });
});

describe("forced rendering and actions", () => {
  test("render=true uses the browser for a plain page too", async () => {
    const res = await app.request(
      `/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&render=true&maxAge=0`,
    );
    expect((await resultOf(res)).method).toBe("browser");
  }, 60_000);

  test("stealth=true forces stealth", async () => {
    expect((await resultOf(await postFetch(app, { url: `${site.url}/article`, stealth: true }))).method).toBe(
      "stealth",
    );
  }, 60_000);

  test("type + click reveals content, and a screenshot action returns a PNG", async () => {
    const actions = [
      { type: "type", selector: "#q", text: "kettles" },
      { type: "click", selector: "#go" },
      { type: "waitForSelector", selector: "#result" },
      { type: "screenshot" },
    ];
    const result = await resultOf(await postFetch(app, { url: `${site.url}/form`, actions }));
    expect(result.content).toContain(`${FORM_RESULT_PREFIX}kettles`);
    expect(result.actions?.screenshots).toHaveLength(1);
    const png = Buffer.from(result.actions?.screenshots[0] ?? "", "base64");
    expect(png.subarray(1, 4).toString()).toBe("PNG");
  }, 60_000);

  test("executeJavascript, scrape and pdf come back in actions; the screenshot route refuses pdf and scrape", async () => {
    const actions = [
      {
        type: "executeJavascript",
        script: "return [...document.querySelectorAll('input')].map((i) => i.id);",
      },
      { type: "scrape" },
      { type: "pdf", scale: 0.5 },
    ];
    const result = await resultOf(await postFetch(app, { url: `${site.url}/form`, actions }));
    expect(result.actions?.javascriptReturns).toEqual([{ type: "object", value: ["q"] }]);
    expect(result.actions?.scrapes[0]?.html).toContain('id="go"');
    expect(result.actions?.screenshots).toEqual([]);
    expect(
      Buffer.from(result.actions?.pdfs[0] ?? "", "base64")
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const refused = await app.request("/v1/screenshot", {
      method: "POST",
      body: JSON.stringify({ url: `${site.url}/form`, actions: [{ type: "pdf" }] }),
    });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toContain("actions[0] (pdf)");
    const badScale = await postFetch(app, { url: `${site.url}/form`, actions: [{ type: "pdf", scale: 5 }] });
    expect(badScale.status).toBe(400);
    expect((await errorOf(badScale)).message).toContain("scale");
  }, 60_000);

  test("an action whose selector never appears is a 400 naming the action", async () => {
    const actions = [{ type: "waitForSelector", selector: "#never", timeout: 500 }];
    const res = await postFetch(app, { url: `${site.url}/form`, actions });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/actions\[0\].*#never/);
  }, 60_000);

  test('formats ["screenshot"] adds a base64 PNG to the fetch result', async () => {
    const result = await resultOf(
      await postFetch(app, { url: `${site.url}/article`, formats: ["screenshot"] }),
    );
    const png = Buffer.from(result.screenshot ?? "", "base64");
    expect(imageSize(png)).toEqual({ format: "png", width: 1280, height: 720 });
  }, 60_000);
});

describe("POST /v1/screenshot", () => {
  const shoot = (body: Record<string, unknown>) =>
    app.request("/v1/screenshot", { method: "POST", body: JSON.stringify(body) });

  test("answers the SPEC shape with a PNG of the viewport", async () => {
    const res = await shoot({ url: `${site.url}/article`, width: 800, height: 600 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      success: boolean;
      data: { url: string; screenshot: string; metadata: Record<string, unknown> };
    };
    expect(body.success).toBe(true);
    expect(body.data.url).toBe(`${site.url}/article`);
    expect(body.data.screenshot).toStartWith("data:image/png;base64,");
    const image = Buffer.from(body.data.screenshot.split(",")[1] ?? "", "base64");
    expect(imageSize(image)).toEqual({ format: "png", width: 800, height: 600 });
    expect(body.data.metadata).toEqual({
      sourceURL: `${site.url}/article`,
      format: "png",
      width: 800,
      height: 600,
      fullPage: false,
    });
  }, 60_000);

  test("fullPage JPEG is taller than the viewport", async () => {
    const res = await shoot({ url: `${site.url}/tall`, fullPage: true, format: "jpeg", quality: 70 });
    const body = (await res.json()) as { data: { screenshot: string; metadata: { height: number } } };
    expect(body.data.screenshot).toStartWith("data:image/jpeg;base64,");
    const image = Buffer.from(body.data.screenshot.split(",")[1] ?? "", "base64");
    const size = imageSize(image);
    expect(size.format).toBe("jpeg");
    expect(size.height).toBeGreaterThan(720);
    expect(body.data.metadata.height).toBe(size.height);
  }, 60_000);

  test("SSRF applies to screenshots", async () => {
    const guarded = await startTestApp({ disableSsrfProtection: false });
    try {
      const res = await guarded.request("/v1/screenshot", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/article` }),
      });
      expect(res.status).toBe(403);
      expect((await errorOf(res)).type).toBe("forbidden_url");
    } finally {
      await guarded.close();
    }
  });
});

describe("a job's rendered pages share one browsing session", () => {
  test("the crawl's second page is sent the cookie its first page was given; a fetch outside the job is not", async () => {
    const started = await app.request("/v1/crawl", {
      method: "POST",
      body: JSON.stringify({
        url: `${site.url}/visitor`,
        limit: 2,
        maxConcurrency: 1,
        ignoreSitemap: true,
        scrapeOptions: { render: true, format: "text", maxAge: 0 },
      }),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    let poll: { status: string; data: { url: string; markdown: string }[] } = { status: "", data: [] };
    for (let i = 0; i < 600 && !["completed", "failed", "cancelled"].includes(poll.status); i++) {
      await Bun.sleep(50);
      poll = await (await app.request(`/v1/crawl/${id}`)).json();
    }
    expect(poll.status).toBe("completed");
    const byUrl = new Map(poll.data.map((page) => [new URL(page.url).pathname, page.markdown]));
    expect(byUrl.get("/visitor")).toContain(FIRST_VISIT_TEXT);
    expect(byUrl.get("/visitor/next")).toContain(RETURN_VISIT_TEXT);

    const outside = await resultOf(await postFetch(app, { url: `${site.url}/visitor/next`, render: true }));
    expect(outside.content).toContain(FIRST_VISIT_TEXT);
  }, 60_000);
});
