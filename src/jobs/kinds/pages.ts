import { HostScheduler, hostKey } from "../../crawl/hosts.ts";
import type { LlmsTxt } from "../../crawl/llms-txt.ts";
import { toSiphonError } from "../../errors.ts";
import type { JobItem } from "../../store/types.ts";
import { type CrawlPlan, planCrawl } from "../crawl-plan.ts";
import { ALL_PAGES_FAILED } from "../extract-job.ts";
import { scrubSecrets } from "../secrets.ts";
import { type JobSpec, jobSpec } from "../spec.ts";
import type { JobContext, JobEnd, JobKind } from "./types.ts";

/** What every page of one running job shares. */
export interface JobRun {
  ctx: JobContext;
  spec: JobSpec;
  plan: CrawlPlan | undefined;
  /** URLs this run has handed to the store (it dedups too; this only spares it repeated writes). */
  queued: Set<string>;
}

/** Pending items read at most when looking past busy hosts for one that may start. */
const FRONTIER_WINDOW = 200;
/** Pending items read at once, in pools: a read serves a few pools' worth of pages. */
const READ_AHEAD = 4;
/** A page the store could not record is taken again after this pause. */
const STORE_RETRY_MS = 1_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * What every page of a page job needs: its spec and, for a crawl, its plan (robots.txt, scope;
 * `llms`: the start origin's llms.txt when the caller read it already, null when it has none).
 */
export async function openPageRun(ctx: JobContext, llms?: LlmsTxt | null): Promise<JobRun> {
  // Pages run here (with a queue too: a coordinating worker runs its job's pages while it has
  // room): the threads load while robots.txt and the first page are fetched.
  ctx.engines.startExtraction?.();
  const spec = await jobSpec(ctx.job, { config: ctx.config, pageView: ctx.pageView });
  const engine = await ctx.engines.get("simple");
  const plan = spec.crawl
    ? await planCrawl(spec.crawl, engine, ctx.config.userAgent, ctx.signal, llms).catch(() => undefined)
    : undefined;
  return { ctx, spec, plan, queued: new Set() };
}

/**
 * Fetches one page of a job and records it: its outcome (counted once, however often the page
 * is finished) and, for a crawl, the links it adds to the frontier. A page whose fetch fails is
 * recorded failed; the store being unavailable throws store_unavailable, and the page stays pending.
 */
export async function processItem(run: JobRun, url: string, depth: number): Promise<void> {
  const { ctx, spec, plan, queued } = run;
  const { job, signal, store } = ctx;
  try {
    const done = await spec.page(url, {
      config: ctx.config,
      store,
      engines: ctx.engines,
      signal,
      now: ctx.now,
      httpOnly: await ctx.httpOnly(),
      // The job's rendered pages share a browsing session, as one person's browser would.
      browserSession: job.id,
      // The caller is remote: an llmApiBase passes the same SSRF rules as every fetch.
      apiBasePolicy: "guard",
      llmLog: ctx.log,
      markdownTwin: plan?.markdownTwin,
    });
    const { data, credits, tokens = 0 } = done;
    if (plan?.followsLinks && depth < spec.maxDepth) {
      // The store ignores URLs it has; skipping those this run already queued saves it the writes.
      const found = new Set<string>();
      for (const link of done.links) {
        const url = plan.follow(link);
        if (url && !queued.has(url)) found.add(url);
      }
      // The links reach the frontier before the page counts as done: a store that fails (or a
      // process that dies) in between leaves the page pending, to be run again, not its links lost.
      if (found.size) {
        await store.jobs.addItems(
          job.id,
          [...found].map((url) => ({ url, depth: depth + 1 })),
          spec.limit,
        );
        for (const url of found) queued.add(url);
      }
    }
    // A page finished before (a job delivered twice, a retry after a crash) was charged and
    // announced then: its account pays once and its webhook hears of it once.
    if (!(await store.jobs.finishItem(job.id, url, { state: "done", data, credits }))) return;
    if (credits || tokens) await ctx.charge(credits, tokens);
    ctx.emit({ type: "page", url: done.url, title: done.title ?? "" });
    ctx.notify("page", { url: done.url, title: done.title, ...data });
  } catch (raw) {
    if (signal.aborted) return; // cancelled or closing: the item stays pending
    const error = toSiphonError(raw);
    // The store (PostgreSQL, Redis) away is no fault of the page's: it stays pending, to be run again.
    if (error.type === "store_unavailable") throw error;
    // A vendor's error may echo the caller's key: it never reaches the item, a poll or a webhook.
    const message = scrubSecrets(error.message, job.input);
    await store.jobs.finishItem(job.id, url, {
      state: "failed",
      data: { url, error: { type: error.type, message } },
      error: message,
      credits: 0,
    });
  }
}

/**
 * Crawl, batch and extract: a pool over the job's stored URL items. Every page's outcome is stored as
 * it finishes, so a resumed job fetches only what was still pending.
 */
export async function runPages(ctx: JobContext, llms?: LlmsTxt | null): Promise<JobEnd | null> {
  const { job, signal, store } = ctx;
  const id = job.id;
  const jobRun = await openPageRun(ctx, llms);
  const { spec, plan } = jobRun;
  // Sitemap URLs are one hop from the start, so they only join when the crawl may go a hop; with
  // sitemap "only" they are the whole crawl (its job starts with no item, so it seeds when it has none).
  const only = plan !== undefined && !plan.followsLinks;
  if (plan && (only ? job.total === 0 : ctx.fresh && spec.maxDepth >= 1)) {
    const seeds = await plan.seeds(spec.limit, signal).catch(() => []);
    await store.jobs.addItems(
      id,
      seeds.map((url) => ({ url, depth: 1 })),
      spec.limit,
    );
  }
  // Per host: at most SIPHON_CRAWL_HOST_CONCURRENCY pages at once, and with a delay (the crawl's, or
  // the start host's robots.txt Crawl-delay) one page at a time with the delay after each.
  const startHost = plan ? hostKey(plan.start.href) : "";
  const hosts = new HostScheduler({
    perHost: ctx.config.crawlHostConcurrency,
    delayMs: (host) => Math.max(spec.delayMs, host === startHost ? (plan?.delayMs ?? 0) : 0),
    now: ctx.now,
  });
  const parallel = spec.parallel;
  const here = (url: string, depth: number) =>
    processItem(jobRun, url, depth).catch(async (raw) => {
      // The page stays pending and the loop takes it again, once the store had a moment.
      if (toSiphonError(raw).type !== "store_unavailable") throw raw;
      await sleep(STORE_RETRY_MS, signal);
    });
  // With a queue, pages run here or on whichever worker takes them; this loop keeps the frontier
  // and the per-host limits, so they hold across workers.
  const runPage = (url: string, depth: number) =>
    ctx.dispatch ? ctx.dispatch(url, depth, () => here(url, depth)) : here(url, depth);
  await ctx.progress();
  // A pool, not rounds: when one page finishes the next starts, so a slow page never idles the other slots.
  const inFlight = new Map<string, Promise<void>>();
  /** Starts what `items` may start now (in order, within the hosts' limits); answers the rest. */
  const startSome = (items: JobItem[]): JobItem[] => {
    const taken = new Set(hosts.take(items, parallel - inFlight.size));
    for (const it of taken) {
      const work = runPage(it.url, it.depth).finally(() => {
        inFlight.delete(it.url);
        hosts.finished(it.url);
      });
      inFlight.set(it.url, work);
    }
    return taken.size ? items.filter((it) => !taken.has(it)) : items;
  };
  /**
   * Pending items read ahead of need, in frontier order, none in flight: a page started from here
   * spares a read of the frontier (on PostgreSQL a round trip a page). Pages found meanwhile wait
   * behind them (a shallower page found late among them too); the frontier is read again once
   * they run out or wait on busy hosts.
   */
  let ahead: JobItem[] = [];
  while (!signal.aborted) {
    let waiting: JobItem[] = [];
    if (inFlight.size < parallel) {
      waiting = ahead = startSome(ahead);
      // A window a few times the pool first; a wider one when busy hosts hold the front of the frontier.
      if (inFlight.size < parallel)
        for (const size of [READ_AHEAD * parallel + inFlight.size, FRONTIER_WINDOW + inFlight.size]) {
          const pending = await store.jobs.pending(id, size);
          waiting = ahead = startSome(pending.filter((it) => !inFlight.has(it.url)));
          if (inFlight.size >= parallel || pending.length < size) break;
        }
      if (inFlight.size === 0 && waiting.length === 0) break;
    }
    const wait = hosts.waitMs(waiting);
    if (inFlight.size === 0) await sleep(wait ?? 0, signal);
    else if (wait === null) await Promise.race(inFlight.values());
    else await Promise.race([...inFlight.values(), sleep(wait, signal)]);
    await ctx.progress();
  }
  await Promise.all(inFlight.values());
  if (signal.aborted) return null;
  const counts = await store.jobs.get(id);
  return counts && counts.completed === 0 && counts.failed > 0
    ? { status: "failed", error: ALL_PAGES_FAILED }
    : { status: "completed" };
}

/** The kind of crawl and batch jobs (their pages' LLM keys are erased by the runner when they end). */
export const pagesKind: JobKind = { run: runPages };
