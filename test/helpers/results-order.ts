/**
 * The job-results contract, run on each implementation (one process on SQLite; the hosted
 * queue on PostgreSQL and Redis with two workers): a crawl or batch of a site whose pages
 * finish in an order unlike the one they were found in, read while it runs through each HTTP
 * surface (native poll with skip and next, SSE, the Firecrawl SDK's paged results, the MCP job
 * tool), gives every page exactly once, run after run.
 */
import { expect, test } from "bun:test";
import Firecrawl from "@mendable/firecrawl-js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { UnevenSite } from "./uneven-site.ts";

/** What a suite runs against: a listening siphon and a key of an unlimited-enough plan. */
export interface ResultsTarget {
  apiUrl: string;
  key: string;
  /** 41 pages. */
  site: UnevenSite;
  /** Over 150 pages: more than one page of a Firecrawl poll (100 documents), so its `next` is followed. */
  bigSite: UnevenSite;
}

/** Runs of each case: a race shows in a loop, not in one lucky run. */
export const RUNS = 3;

const ENDED = new Set(["completed", "failed", "cancelled"]);

/** Each URL of `expected` exactly once in `seen` (the message names what repeated or is missing). */
export function expectEachOnce(seen: string[], expected: string[]) {
  const counts = new Map<string, number>();
  for (const url of seen) counts.set(url, (counts.get(url) ?? 0) + 1);
  const repeated = [...counts].filter(([, n]) => n > 1).map(([url]) => url);
  const missing = expected.filter((url) => !counts.has(url));
  expect({ repeated, missing, count: seen.length }).toEqual({
    repeated: [],
    missing: [],
    count: expected.length,
  });
}

async function api(target: ResultsTarget, method: string, path: string, body?: unknown) {
  const response = await fetch(path.startsWith("http") ? path : `${target.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A crawl of the whole uneven site (every page is within depth 2 of /u/0). */
const crawlBody = (site: UnevenSite) => ({ url: site.page(0), limit: site.all().length, maxDepth: 5 });

/**
 * Reads a native crawl or batch poll while the job runs, a few results at a time: from `next`
 * when the answer has one, else again from where it got to; until the job ended and all is read.
 */
async function readNativePoll(target: ResultsTarget, pollUrl: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let url = `${pollUrl}?skip=0&limit=${limit}`;
  for (let polls = 0; polls < 5000; polls++) {
    const body = await api(target, "GET", url);
    const data = body.data as { url: string; metadata?: { sourceURL?: string } }[];
    seen.push(...data.map((d) => d.url));
    if (typeof body.next === "string") {
      url = body.next;
      continue;
    }
    if (ENDED.has(String(body.status)) && seen.length >= Number(body.completed)) return seen;
    url = `${pollUrl}?skip=${seen.length}&limit=${limit}`;
    await Bun.sleep(15);
  }
  throw new Error("the job never ended");
}

/** The page events of a job's SSE stream, until its done event. */
async function readSse(target: ResultsTarget, pollUrl: string): Promise<{ pages: string[]; done: unknown }> {
  const response = await fetch(pollUrl, {
    headers: { authorization: `Bearer ${target.key}`, accept: "text/event-stream" },
  });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const pages: string[] = [];
  let done: unknown;
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of response.body as ReadableStream<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    const frames = rest.split("\n\n");
    rest = frames.pop() ?? "";
    for (const frame of frames) {
      const event = JSON.parse(frame.replace(/^data: /, "")) as { type: string; url?: string };
      if (event.type === "page") pages.push(String(event.url));
      if (event.type === "done") done = event;
    }
  }
  return { pages, done };
}

/** Pages of the uneven site's tree under page k (k included): its links are 8k+1.. 8k+8. */
function subtreeSize(k: number, pages: number): number {
  if (k >= pages) return 0;
  let size = 1;
  for (let c = 8 * k + 1; c <= 8 * k + 8; c++) size += subtreeSize(c, pages);
  return size;
}

/** Every page's URL as a native result names it (the URL fetched). */
const urlsOf = (site: UnevenSite) => site.all();

/** The contract's tests, named after `name`. */
export function resultsOrderContract(name: string, target: () => ResultsTarget) {
  test(`${name}: a native crawl polled with skip and next while it runs gives each page once (${RUNS} runs)`, async () => {
    const t = target();
    for (let run = 0; run < RUNS; run++) {
      const started = await api(t, "POST", "/v1/crawl", crawlBody(t.site));
      expectEachOnce(await readNativePoll(t, String(started.url), 3), urlsOf(t.site));
    }
  }, 120_000);

  test(`${name}: a native batch polled with skip and next while it runs gives each page once (${RUNS} runs)`, async () => {
    const t = target();
    // Found (listed) in the order the site's delays make slowest first.
    const urls = urlsOf(t.site);
    for (let run = 0; run < RUNS; run++) {
      const started = await api(t, "POST", "/v1/batch/scrape", { urls });
      expectEachOnce(await readNativePoll(t, String(started.url), 2), urls);
    }
  }, 120_000);

  test(`${name}: SSE sends each page once, then done with every page counted (${RUNS} runs)`, async () => {
    const t = target();
    for (let run = 0; run < RUNS; run++) {
      const started = await api(t, "POST", "/v1/crawl", crawlBody(t.site));
      const { pages, done } = await readSse(t, String(started.url));
      expect(done).toMatchObject({ type: "done", status: "completed", completed: t.site.all().length });
      // A stream opened after some pages finished sends only the pages after it: none twice.
      expect(new Set(pages).size).toBe(pages.length);
      const final = await readNativePoll(t, String(started.url), 100);
      expectEachOnce(final, urlsOf(t.site));
    }
  }, 120_000);

  test(`${name}: the Firecrawl SDK's paged results: a page finishing between two of its requests is neither repeated nor skipped`, async () => {
    const t = target();
    const site = t.bigSite;
    const all = urlsOf(site);
    // Held: page 3, found early (its place among the pages found is 5th). Without it, its subtree
    // waits too, but over 100 other pages finish, so a poll has more than one page of documents.
    const release = site.hold(3);
    const fc = new Firecrawl({ apiKey: t.key, apiUrl: t.apiUrl });
    const { id } = await fc.startCrawl(site.page(0), {
      limit: all.length,
      maxDiscoveryDepth: 5,
      crawlEntireDomain: true,
    });
    const completed = async () => Number((await api(t, "GET", `/v2/crawl/${id}?limit=1`)).completed);
    // Every page but the held one's subtree finishes; then only the held page is left to run.
    const others = all.length - subtreeSize(3, all.length);
    expect(others).toBeGreaterThan(100);
    for (let i = 0; (await completed()) < others; i++) {
      if (i > 3000) throw new Error(`the crawl did not get to ${others} pages`);
      await Bun.sleep(20);
    }
    // A proxy in front of the API: when the SDK asks for its second page of documents, the held
    // page is let go and finishes first, between the SDK's two requests.
    let released = false;
    let proxyUrl = "";
    const proxy: ReturnType<typeof Bun.serve> = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request): Promise<Response> {
        const url = new URL(request.url);
        if (url.searchParams.get("skip") === "100" && !released) {
          released = true;
          const before = await completed();
          release();
          while ((await completed()) === before) await Bun.sleep(5);
        }
        const upstream = await fetch(`${t.apiUrl}${url.pathname}${url.search}`, {
          method: request.method,
          headers: request.headers,
          body: request.method === "GET" ? undefined : await request.text(),
        });
        const text: string = (await upstream.text()).replaceAll(t.apiUrl, proxyUrl);
        return new Response(text, {
          status: upstream.status,
          headers: { "content-type": "application/json" },
        });
      },
    });
    proxyUrl = `http://127.0.0.1:${proxy.port}`;
    try {
      const through = new Firecrawl({ apiKey: t.key, apiUrl: proxyUrl });
      const status = await through.getCrawlStatus(id, { autoPaginate: true });
      expect(released).toBe(true);
      const seen = status.data.map((doc) => String(doc.metadata?.sourceURL));
      expect(seen.filter((url, i) => seen.indexOf(url) !== i)).toEqual([]);
      expect(seen.length).toBeGreaterThanOrEqual(status.completed ?? 0);
      let final = await fc.getCrawlStatus(id);
      for (let i = 0; final.status === "scraping" && i < 2000; i++) {
        await Bun.sleep(20);
        final = await fc.getCrawlStatus(id);
      }
      expect(final.status).toBe("completed");
      expectEachOnce(
        final.data.map((doc) => String(doc.metadata?.sourceURL)),
        all,
      );
    } finally {
      release();
      proxy.stop(true);
    }
  }, 120_000);

  test(`${name}: the MCP crawl tool read by startIndex while the job runs gives each page once (2 runs)`, async () => {
    const t = target();
    const client = new Client({ name: "results-order", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.apiUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${t.key}` } },
      }),
    );
    try {
      for (let run = 0; run < 2; run++) {
        const call = async (args: Record<string, unknown>) => {
          const result = (await client.callTool({ name: "siphon_crawl", arguments: args })) as {
            isError?: boolean;
            structuredContent?: Record<string, unknown>;
            content: { text?: string }[];
          };
          if (result.isError) throw new Error(String(result.content[0]?.text));
          return result.structuredContent as {
            jobId: string;
            status: string;
            completed: number;
            pages: { url: string }[];
            page: { nextStartIndex: number | null; endIndex: number };
          };
        };
        const first = await call({
          url: t.site.page(0),
          limit: t.site.all().length,
          maxDepth: 5,
          wait: false,
        });
        const seen: string[] = [];
        for (let calls = 0; calls < 2000; calls++) {
          const answer = await call({
            jobId: first.jobId,
            wait: false,
            startIndex: seen.length,
            maxLength: 100,
          });
          seen.push(...answer.pages.map((p) => p.url));
          if (ENDED.has(answer.status) && seen.length >= answer.completed) break;
          if (answer.page.nextStartIndex === null) await Bun.sleep(15);
        }
        expectEachOnce(seen, urlsOf(t.site));
      }
    } finally {
      await client.close();
    }
  }, 120_000);
}
