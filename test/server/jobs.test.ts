import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { SiphonError } from "../../src/errors.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import {
  DISALLOWED_PAGE,
  MISSING_PAGES,
  SLOW_PAGE,
  SLOW_PAGE_MS,
  startGeneratedSite,
} from "../helpers/generated-site.ts";
import { ROBOTS_DISALLOWED_PATH, SITEMAP_PATHS } from "../helpers/site-pages/data.ts";

let site: FixtureSite;
let app: TestApp;
beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp({ webhookBaseDelayMs: 10 });
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

type Poll = {
  status: string;
  progress: number;
  total: number;
  completed: number;
  creditsUsed: number;
  expiresAt: string | null;
  next?: string;
  data: Record<string, unknown>[];
};

const post = (path: string, body: unknown, on: TestApp = app) =>
  on.request(path, { method: "POST", body: JSON.stringify(body) });

async function start(path: string, body: unknown, on: TestApp = app): Promise<string> {
  const res = await post(path, body, on);
  expect(res.status).toBe(202);
  const started = (await res.json()) as { success: boolean; id: string; url: string };
  expect(started.success).toBe(true);
  expect(started.url).toBe(`http://localhost${path}/${started.id}`);
  return started.id;
}

async function until(
  path: string,
  done = (p: Poll) => ["completed", "failed", "cancelled"].includes(p.status),
  on: TestApp = app,
): Promise<Poll> {
  for (let i = 0; i < 300; i++) {
    const poll = (await (await on.request(path)).json()) as Poll;
    if (done(poll)) return poll;
    await Bun.sleep(50);
  }
  throw new Error(`${path} did not finish`);
}

describe("crawl", () => {
  test("crawls the site BFS within limit and depth, respecting robots.txt and deduplicating", async () => {
    const id = await start("/v1/crawl", { url: `${site.url}/`, limit: 12, maxDepth: 2, ignoreSitemap: true });
    expect(id).toStartWith("crawl_");
    const poll = await until(`/v1/crawl/${id}?limit=1000`);
    expect(poll).toMatchObject({ status: "completed", progress: 100, total: 12, completed: 12 });
    expect(poll.creditsUsed).toBe(12);
    expect(new Date(poll.expiresAt ?? "").getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const urls = poll.data.map((d) => d.url as string);
    expect(urls).toHaveLength(12);
    expect(urls[0]).toBe(`${site.url}/`);
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) {
      expect(url.startsWith(site.url)).toBe(true);
      expect(url).not.toContain(ROBOTS_DISALLOWED_PATH);
      expect(url).not.toMatch(/[#?].*utm_/);
    }
    const first = poll.data[0] as { title: string; markdown: string; links: string[] };
    expect(first.markdown.length).toBeGreaterThan(20);
    expect(first.links.length).toBeGreaterThan(3);
  });

  test("results paginate with next, built from the request's own origin, omitted on the last page", async () => {
    const id = await start("/v1/crawl", { url: `${site.url}/`, limit: 5, maxDepth: 1, ignoreSitemap: true });
    await until(`/v1/crawl/${id}`);
    const page1 = (await (await app.request(`/v1/crawl/${id}?limit=2`)).json()) as Poll;
    expect(page1.data).toHaveLength(2);
    expect(page1.next).toBe(`http://localhost/v1/crawl/${id}?skip=2&limit=2`);
    const last = (await (await app.request(`/v1/crawl/${id}?skip=4&limit=2`)).json()) as Poll;
    expect(last.data).toHaveLength(1);
    expect(last.next).toBeUndefined();
  });

  test("maxDepth 0 fetches only the start page; includePaths filters the frontier", async () => {
    // The site has a sitemap: seeding must not add pages a depth of 0 forbids.
    const only = await until(`/v1/crawl/${await start("/v1/crawl", { url: `${site.url}/`, maxDepth: 0 })}`);
    expect(only).toMatchObject({ status: "completed", total: 1, completed: 1 });
    expect(only.data.map((d) => d.url)).toEqual([`${site.url}/`]);
    const recipes = await start("/v1/crawl", {
      url: `${site.url}/listing`,
      limit: 6,
      maxDepth: 1,
      includePaths: ["^/recipes/"],
      ignoreSitemap: true,
    });
    const poll = await until(`/v1/crawl/${recipes}`);
    // The listing links to 20 recipes and to pages outside /recipes/: the start page and 5 recipes.
    expect(poll).toMatchObject({ status: "completed", total: 6, completed: 6 });
    const urls = poll.data.map((d) => d.url as string);
    expect(urls).toHaveLength(6);
    expect(urls[0]).toBe(`${site.url}/listing`);
    for (const url of urls.slice(1)) expect(url).toMatch(new RegExp(`^${site.url}/recipes/\\d+$`));
  });

  test('sitemap "only" crawls the sitemap\'s URLs alone: no start page unless listed, no link followed', async () => {
    site.resetHits();
    const id = await start("/v1/crawl", { url: `${site.url}/docs`, limit: 50, sitemap: "only" });
    const poll = await until(`/v1/crawl/${id}?limit=1000`);
    expect(poll).toMatchObject({ status: "completed", total: SITEMAP_PATHS.length });
    const paths = poll.data.map((d) => new URL(d.url as string).pathname).sort();
    expect(paths).toEqual([...SITEMAP_PATHS].sort());
    // The listing links to its recipes; none is in the sitemap, so none was fetched.
    expect(site.hits("/recipes/1")).toBe(0);
    const limited = await until(
      `/v1/crawl/${await start("/v1/crawl", { url: `${site.url}/`, limit: 3, sitemap: "only" })}`,
    );
    expect(limited).toMatchObject({ status: "completed", total: 3, completed: 3 });
    const conflict = await app.request("/v1/crawl", {
      method: "POST",
      body: JSON.stringify({ url: `${site.url}/`, sitemap: "only", ignoreSitemap: true }),
    });
    expect(conflict.status).toBe(400);
  });

  test("a crawl whose pages all fail ends failed", async () => {
    const id = await start("/v1/crawl", {
      url: "http://127.0.0.1:1/",
      ignoreSitemap: true,
      ignoreRobotsTxt: true,
    });
    const poll = await until(`/v1/crawl/${id}`);
    expect(poll.status).toBe("failed");
    expect(poll.data[0]).toMatchObject({ url: "http://127.0.0.1:1/", error: { type: "network_error" } });
  });

  test("cancel mid-crawl stops fetching; a second cancel keeps the terminal status", async () => {
    // 100 ms a page, two at a time: left alone the crawl would fetch 40 pages over about 2 s.
    const gen = startGeneratedSite(60, { latencyMs: 100 });
    try {
      const body = { url: `${gen.url}/g/0`, limit: 40, maxDepth: 20, ignoreSitemap: true, maxConcurrency: 2 };
      const id = await start("/v1/crawl", body);
      for (let i = 0; i < 100 && gen.arrivals.length < 3; i++) await Bun.sleep(10);
      expect(gen.arrivals.length).toBeGreaterThanOrEqual(3);
      const res = await app.request(`/v1/crawl/${id}`, { method: "DELETE" });
      expect(await res.json()).toEqual({ success: true, status: "cancelled" });
      const atCancel = gen.arrivals.length;
      // Pages already asked for may still arrive (at most the two slots); then nothing more.
      await Bun.sleep(300);
      const settled = (await (await app.request(`/v1/crawl/${id}?limit=100`)).json()) as Poll;
      const afterSettling = gen.arrivals.length;
      expect(afterSettling - atCancel).toBeLessThanOrEqual(2);
      await Bun.sleep(700);
      expect(gen.arrivals.length).toBe(afterSettling);
      const later = (await (await app.request(`/v1/crawl/${id}?limit=100`)).json()) as Poll;
      expect(later.status).toBe("cancelled");
      expect(later.completed).toBe(settled.completed);
      expect(later.data).toHaveLength(settled.data.length);
      expect(later.completed).toBeLessThanOrEqual(afterSettling);
      expect(await (await app.request(`/v1/crawl/${id}`, { method: "DELETE" })).json()).toEqual({
        success: true,
        status: "cancelled",
      });
    } finally {
      gen.stop();
    }
  });

  test("bad requests and unknown ids are format-B errors", async () => {
    expect((await errorOf(await post("/v1/crawl", { url: site.url, limit: 0 }))).message).toMatch(/limit/);
    expect((await errorOf(await post("/v1/crawl", { url: site.url, includePaths: ["("] }))).message).toMatch(
      /includePaths\[0\] is not a valid regular expression/,
    );
    expect((await errorOf(await post("/v1/crawl", { url: "ftp://x" }))).type).toBe("forbidden_url");
    const missing = await app.request("/v1/crawl/crawl_nope");
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).type).toBe("not_found");
  });
});

describe("a generated few-hundred-page site", () => {
  test("every reachable page once, in spite of cycles, tracking parameters, fragments and slashes", async () => {
    const gen = startGeneratedSite(300);
    try {
      const id = await start("/v1/crawl", { url: `${gen.url}/g/0`, limit: 1000, maxDepth: 20 });
      const poll = await until(`/v1/crawl/${id}?limit=1000`);
      const urls = poll.data.map((d) => d.url as string);
      // 300 pages, 3 missing ones (kept, with their 404), /g/moved landing on /g/1, and the slow page.
      expect(poll).toMatchObject({ status: "completed", total: 300 + MISSING_PAGES + 2 });
      expect(poll.data.find((d) => (d.url as string).endsWith(SLOW_PAGE))).toMatchObject({
        title: "Slow page",
      });
      expect(urls.filter((u) => u.includes("utm_") || u.includes("#") || u.includes("external"))).toEqual([]);
      expect(urls.some((u) => u.endsWith(DISALLOWED_PAGE))).toBe(false);
      expect(gen.hits.get(DISALLOWED_PAGE)).toBeUndefined();
      for (let i = 0; i < 300; i++) expect(gen.hits.get(`/g/${i}`) ?? 0).toBeLessThanOrEqual(2);
      // /g/1 is fetched as itself and once more through the redirect; every other page exactly once.
      expect(
        [...gen.hits.entries()].filter(([path, n]) => path !== "/g/1" && path.startsWith("/g/") && n > 1),
      ).toEqual([]);
      const missing = poll.data.filter((d) => d.statusCode === 404);
      expect(missing).toHaveLength(MISSING_PAGES);
    } finally {
      gen.stop();
    }
  }, 60_000);

  test("a store that fails to take a page's links loses none of them: the page runs again", async () => {
    const gen = startGeneratedSite(40);
    const jobs = app.store.jobs;
    const addItems = jobs.addItems;
    let failed = 0;
    // Only page 5 links to the slow page and the redirect: the store is away when its links arrive.
    jobs.addItems = async (jobId, items, cap) => {
      if (!failed && items.some((it) => it.url.endsWith(SLOW_PAGE))) {
        failed++;
        throw new SiphonError("store_unavailable", "the store is away");
      }
      return addItems(jobId, items, cap);
    };
    try {
      const id = await start("/v1/crawl", { url: `${gen.url}/g/0`, limit: 1000, maxDepth: 20 });
      const poll = await until(`/v1/crawl/${id}?limit=1000`);
      expect(failed).toBe(1);
      const urls = poll.data.map((d) => d.url as string);
      expect(poll).toMatchObject({ status: "completed", total: 40 + MISSING_PAGES + 2 });
      expect(urls.some((u) => u.endsWith(SLOW_PAGE))).toBe(true);
      // Page 5 ran again once the store was back (from the cache): one result, and its links taken.
      expect(urls.filter((u) => u.endsWith("/g/5"))).toHaveLength(1);
      expect(gen.hits.get("/g/moved")).toBe(1);
      expect(gen.hits.get(SLOW_PAGE)).toBe(1);
    } finally {
      jobs.addItems = addItems;
      gen.stop();
    }
  }, 60_000);
});

describe("concurrency and politeness", () => {
  const pagesOf = (poll: Poll) => poll.data.filter((d) => (d.url as string).includes("/g/"));

  test("maxConcurrency bounds the pages in flight; the slow page does not hold the others up", async () => {
    const gen = startGeneratedSite(40, { latencyMs: 25 });
    try {
      const body = { url: `${gen.url}/g/0`, limit: 30, maxDepth: 20, ignoreSitemap: true, maxConcurrency: 2 };
      const poll = await until(`/v1/crawl/${await start("/v1/crawl", body)}?limit=100`);
      expect(poll).toMatchObject({ status: "completed", total: 30 });
      expect(pagesOf(poll)).toHaveLength(30);
      expect(gen.maxInFlight()).toBe(2);
      const bad = await post("/v1/crawl", { ...body, maxConcurrency: 6 });
      expect(bad.status).toBe(400);
      expect((await errorOf(bad)).message).toContain("maxConcurrency");
    } finally {
      gen.stop();
    }
  }, 30_000);

  test("SIPHON_CRAWL_HOST_CONCURRENCY caps one host's pages in flight", async () => {
    const gen = startGeneratedSite(40, { latencyMs: 25 });
    const polite = await startTestApp({ crawlHostConcurrency: 1 });
    try {
      const body = { url: `${gen.url}/g/0`, limit: 8, maxDepth: 20, ignoreSitemap: true };
      const id = await start("/v1/crawl", body, polite);
      const poll = await until(`/v1/crawl/${id}?limit=100`, undefined, polite);
      expect(poll).toMatchObject({ status: "completed", total: 8 });
      expect(gen.maxInFlight()).toBe(1);
    } finally {
      await polite.close();
      gen.stop();
    }
  }, 30_000);

  test("delay spaces one host's pages, one at a time", async () => {
    const gen = startGeneratedSite(40);
    try {
      const body = { url: `${gen.url}/g/0`, limit: 4, maxDepth: 20, ignoreSitemap: true, delay: 0.15 };
      const poll = await until(`/v1/crawl/${await start("/v1/crawl", body)}?limit=100`);
      expect(poll).toMatchObject({ status: "completed", total: 4 });
      expect(gen.maxInFlight()).toBe(1);
      const times = gen.arrivals.map((a) => a.at);
      const gaps = times.slice(1).map((at, i) => at - (times[i] as number));
      expect(gaps).toHaveLength(3);
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(145);
    } finally {
      gen.stop();
    }
  }, 30_000);

  test("a page slower than the rest is waited for while the others go on", async () => {
    const gen = startGeneratedSite(40);
    try {
      const body = { url: `${gen.url}/g/5`, limit: 20, maxDepth: 20, ignoreSitemap: true };
      const poll = await until(`/v1/crawl/${await start("/v1/crawl", body)}?limit=100`);
      expect(poll).toMatchObject({ status: "completed", total: 20, completed: 20 });
      expect(poll.data.some((d) => (d.url as string).endsWith(SLOW_PAGE))).toBe(true);
      // Other pages start while the slow one is out: its slot is busy, the other four are not.
      const slow = gen.arrivals.find((a) => a.path === SLOW_PAGE)?.at ?? Number.NaN;
      const meanwhile = gen.arrivals.filter((a) => a.at > slow && a.at < slow + SLOW_PAGE_MS);
      expect(meanwhile.length).toBeGreaterThan(0);
    } finally {
      gen.stop();
    }
  }, 30_000);
});

describe("expiry", () => {
  test("results are kept 24 h after the job ends, then the poll answers 404", async () => {
    const clock = new TestClock(Date.now());
    const timed = await startTestApp({}, clock);
    try {
      const res = await timed.request("/v1/batch/scrape", {
        method: "POST",
        body: JSON.stringify({ urls: [`${site.url}/article`] }),
      });
      const { id } = (await res.json()) as { id: string };
      let poll: Poll = { status: "" } as Poll;
      for (let i = 0; i < 100 && poll.status !== "completed"; i++) {
        await Bun.sleep(20);
        poll = (await (await timed.request(`/v1/batch/scrape/${id}`)).json()) as Poll;
      }
      expect(new Date(poll.expiresAt ?? "").getTime()).toBe(clock.ms + 86_400_000);
      clock.advance(86_400_000 - 1000);
      expect((await timed.request(`/v1/batch/scrape/${id}`)).status).toBe(200);
      clock.advance(2000);
      expect((await timed.request(`/v1/batch/scrape/${id}`)).status).toBe(404);
    } finally {
      await timed.close();
    }
  });
});

describe("batch scrape", () => {
  test("fetches every URL, reports invalid ones per item and truncates at maxTokens", async () => {
    const urls = [`${site.url}/article`, "not a url", `${site.url}/docs`];
    const id = await start("/v1/batch/scrape", { urls, maxTokens: 20 });
    expect(id).toStartWith("batch_");
    const poll = await until(`/v1/batch/scrape/${id}`);
    expect(poll).toMatchObject({ status: "completed", total: 3, completed: 3 });
    const failed = poll.data.find((d) => d.url === "not a url");
    expect(failed).toMatchObject({ error: { type: "invalid_url" } });
    const article = poll.data.find((d) => d.url === `${site.url}/article`) as {
      content: string;
      tokens: number;
    };
    expect(article.content.length).toBeLessThanOrEqual(80);
    expect(article.tokens).toBeLessThanOrEqual(20);
  });

  test("a slow page does not hold back the others: the next URL starts as soon as a slot frees", async () => {
    const fast = Array.from({ length: 8 }, (_, i) => `${site.url}/article?n=${i}`);
    const id = await start("/v1/batch/scrape", { urls: [`${site.url}/slow?ms=1500`, ...fast] });
    // With fixed rounds of 5, four fast pages would wait 1.5 s for the slow one.
    const midway = await until(
      `/v1/batch/scrape/${id}`,
      (p) => p.completed >= 8 || p.status !== "processing",
    );
    expect(midway.status).toBe("processing");
    expect(midway.completed).toBe(8);
    expect((await until(`/v1/batch/scrape/${id}`)).completed).toBe(9);
  });

  test("more than 100 URLs is a 400", async () => {
    const res = await post("/v1/batch/scrape", {
      urls: Array.from({ length: 101 }, (_, i) => `${site.url}/${i}`),
    });
    expect((await errorOf(res)).message).toMatch(/urls must have at most 100 items/);
  });
});

describe("job list, webhooks and SSE", () => {
  test("GET /v1/jobs lists the caller's own jobs, newest first, with filters", async () => {
    // Its own server, keys and clock: the list holds exactly the jobs made here, a second apart.
    const clock = new TestClock(Date.now());
    const own = await startTestApp({ auth: "required" }, clock);
    try {
      const mine = { authorization: `Bearer ${(await own.createKey("pro")).key}` };
      const theirs = { authorization: `Bearer ${(await own.createKey("pro")).key}` };
      const submit = async (path: string, body: unknown, headers = mine) => {
        clock.advance(1000);
        const res = await own.request(path, { method: "POST", headers, body: JSON.stringify(body) });
        expect(res.status).toBe(202);
        return ((await res.json()) as { id: string }).id;
      };
      const ended = async (path: string) => {
        for (let i = 0; i < 300; i++) {
          const poll = (await (await own.request(path, { headers: mine })).json()) as Poll;
          if (["completed", "failed", "cancelled"].includes(poll.status)) return poll;
          await Bun.sleep(20);
        }
        throw new Error(`${path} did not finish`);
      };
      const firstBatch = await submit("/v1/batch/scrape", { urls: [`${site.url}/article`] });
      expect((await ended(`/v1/batch/scrape/${firstBatch}`)).status).toBe("completed");
      const crawl = await submit("/v1/crawl", {
        url: `${site.url}/slow?ms=5000`,
        maxDepth: 0,
        ignoreSitemap: true,
      });
      const cancel = await own.request(`/v1/crawl/${crawl}`, { method: "DELETE", headers: mine });
      expect(await cancel.json()).toEqual({ success: true, status: "cancelled" });
      const secondBatch = await submit("/v1/batch/scrape", {
        urls: [`${site.url}/docs`, `${site.url}/forum`],
      });
      expect((await ended(`/v1/batch/scrape/${secondBatch}`)).status).toBe("completed");
      const otherAccount = await submit("/v1/batch/scrape", { urls: [`${site.url}/article`] }, theirs);

      type Listed = { id: string; type: string; status: string; total: number; createdAt: string };
      const list = async (query: string) => {
        const res = await own.request(`/v1/jobs${query}`, { headers: mine });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { success: boolean; count: number; jobs: Listed[] };
        expect(body.success).toBe(true);
        expect(body.count).toBe(body.jobs.length);
        return body.jobs;
      };
      const all = await list("");
      expect(all.map((j) => j.id)).toEqual([secondBatch, crawl, firstBatch]);
      expect(all.map((j) => j.id)).not.toContain(otherAccount);
      expect(all.map(({ type, status, total }) => ({ type, status, total }))).toEqual([
        { type: "batch", status: "completed", total: 2 },
        { type: "crawl", status: "cancelled", total: 1 },
        { type: "batch", status: "completed", total: 1 },
      ]);
      expect(all.map((j) => Date.parse(j.createdAt))).toEqual([
        clock.ms - 1000,
        clock.ms - 2000,
        clock.ms - 3000,
      ]);
      expect((await list("?type=batch")).map((j) => j.id)).toEqual([secondBatch, firstBatch]);
      expect((await list("?type=crawl")).map((j) => j.id)).toEqual([crawl]);
      expect((await list("?status=cancelled")).map((j) => j.id)).toEqual([crawl]);
      expect((await list("?status=completed&type=batch&limit=1")).map((j) => j.id)).toEqual([secondBatch]);
      expect(await list("?type=crawl&status=completed")).toEqual([]);
      const bad = await own.request("/v1/jobs?status=sleeping", { headers: mine });
      expect(bad.status).toBe(400);
      expect((await errorOf(bad)).type).toBe("invalid_request");
    } finally {
      await own.close();
    }
  });

  test("webhooks: started, page and completed arrive signed, with metadata, after retries", async () => {
    const received: { body: string; signature: string | null }[] = [];
    let failures = 2;
    const receiver = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const body = await req.text();
        if (failures-- > 0) return new Response("try again", { status: 500 });
        received.push({ body, signature: req.headers.get("x-siphon-signature") });
        return new Response("ok");
      },
    });
    try {
      const webhook = {
        url: `http://127.0.0.1:${receiver.port}/hook`,
        secret: "s3cret",
        metadata: { run: 7 },
      };
      const id = await start("/v1/crawl", {
        url: `${site.url}/article`,
        maxDepth: 0,
        ignoreSitemap: true,
        webhook,
      });
      await until(`/v1/crawl/${id}`);
      for (let i = 0; i < 100 && !received.some((r) => r.body.includes('"completed"')); i++)
        await Bun.sleep(20);
      const events = received.map((r) => JSON.parse(r.body));
      expect(events.map((e) => e.event)).toEqual(["started", "page", "completed"]);
      expect(events[2]).toMatchObject({ data: { jobId: id, total: 1, completed: 1 }, metadata: { run: 7 } });
      for (const r of received) {
        expect(r.signature).toBe(`sha256=${createHmac("sha256", "s3cret").update(r.body).digest("hex")}`);
      }
    } finally {
      receiver.stop(true);
    }
  });

  test("SSE streams page and progress events and a final done, read by a real HTTP client", async () => {
    const base = app.listen();
    // A slow first page keeps the crawl running while the client connects.
    const id = await start("/v1/crawl", { url: `${site.url}/slow?ms=300`, maxDepth: 0, ignoreSitemap: true });
    const res = await fetch(`${base}/v1/crawl/${id}`, { headers: { accept: "text/event-stream" } });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const events = text
      .split("\n\n")
      .filter((chunk) => chunk.startsWith("data: "))
      .map((chunk) => JSON.parse(chunk.slice(6)));
    expect(events[0]).toMatchObject({ type: "progress", status: "processing" });
    expect(events.some((e) => e.type === "page" && e.url.includes("/slow"))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 1, total: 1 });
  });
});
