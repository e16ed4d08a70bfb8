import { loadLlmsTxt, loadSiteText } from "../../crawl/llms-txt.ts";
import { buildLlmsFullTxt, buildLlmsTxt, type LlmsPage, siteTitle } from "../../llmstxt/build.ts";
import { describePage } from "../../llmstxt/describe.ts";
import { llmTargetOf } from "../../schemas/llm.ts";
import type { LlmstxtInput, LlmstxtResult } from "../../schemas/llmstxt.ts";
import { extractiveSummary } from "../../summary/extractive.ts";
import { allResults } from "../read.ts";
import { runPages } from "./pages.ts";
import type { JobContext, JobEnd, JobKind } from "./types.ts";

/** Pages described by the LLM at once. */
const DESCRIBE_CONCURRENCY = 4;

interface CrawledPage {
  url: string;
  title?: string;
  markdown?: string;
  metadata?: { description?: string | null };
}

/** Describes every page (the LLM's sentence, else the page's own description), a few at a time. */
async function describeAll(ctx: JobContext, input: LlmstxtInput, pages: CrawledPage[]) {
  const llm = input.llmApiKey ? llmTargetOf(input) : undefined;
  const deps = { config: ctx.config, signal: ctx.signal, apiBasePolicy: "guard" as const, log: ctx.log };
  const described: LlmsPage[] = [];
  const tokens = { input: 0, output: 0 };
  for (let at = 0; at < pages.length; at += DESCRIBE_CONCURRENCY) {
    const batch = pages.slice(at, at + DESCRIBE_CONCURRENCY);
    const done = await Promise.all(
      batch.map((page) =>
        describePage(
          {
            title: page.title ?? "",
            description: page.metadata?.description ?? null,
            markdown: page.markdown ?? "",
          },
          llm,
          deps,
        ),
      ),
    );
    done.forEach((d, i) => {
      const page = batch[i] as CrawledPage;
      tokens.input += d.tokens.input;
      tokens.output += d.tokens.output;
      described.push({
        url: page.url,
        title: page.title ?? "",
        description: d.description,
        markdown: page.markdown ?? "",
      });
    });
  }
  return { described, tokens, byLlm: llm !== undefined };
}

/**
 * An llms.txt job: the site's own /llms.txt answered as it is (with its llms-full.txt when it has
 * one) unless `regenerate`; else the site crawled as a crawl job is (its pages stored as they
 * finish, so a resumed job fetches only what was pending), then llms.txt and llms-full.txt written
 * from the pages in crawl order, the result stored as the job ends.
 */
async function runLlmstxt(ctx: JobContext): Promise<JobEnd | null> {
  const input = ctx.job.input as LlmstxtInput;
  const origin = new URL(input.url).origin;
  const engine = await ctx.engines.get("simple");
  const own = await loadLlmsTxt(origin, engine, ctx.signal);
  if (ctx.signal.aborted) return null;
  if (own && !input.regenerate) {
    const result: LlmstxtResult = {
      url: input.url,
      source: "site",
      llmsTxt: own.text,
      llmsFullTxt: (await loadSiteText(`${origin}/llms-full.txt`, engine, ctx.signal))?.text ?? null,
      pages: own.links.length,
      descriptions: "page",
      existing: own.url,
    };
    if (ctx.signal.aborted) return null;
    return { status: "completed", result, completed: { source: "site", existing: own.url } };
  }
  // The crawl takes its pages' markdown twins from the llms.txt read above, not a second read.
  const end = await runPages(ctx, own ?? null);
  if (end?.status !== "completed") return end;
  const job = await ctx.store.jobs.get(ctx.job.id);
  const items = job ? await allResults(ctx.store, job) : [];
  // The start page first, then the rest by URL: the same site gives the same file.
  const pages = items
    .filter((item) => item.state === "done" && item.data)
    .map((item) => item.data as CrawledPage)
    .filter((page) => (page.markdown ?? "").trim())
    .sort((a, b) => (a.url === input.url ? -1 : b.url === input.url ? 1 : a.url.localeCompare(b.url)));
  const { described, tokens, byLlm } = await describeAll(ctx, input, pages);
  if (ctx.signal.aborted) return null;
  const used = tokens.input + tokens.output;
  if (used) await ctx.charge(0, used);
  // Sorted start page first: the first page is the start page when it was crawled.
  const title = siteTitle(described, described[0]?.url ?? input.url);
  const home = pages[0];
  const summary =
    home?.metadata?.description?.trim() ||
    extractiveSummary(home?.markdown ?? "", 1) ||
    `The pages of ${new URL(input.url).hostname}.`;
  const site = { url: input.url, title, summary };
  const result: LlmstxtResult = {
    url: input.url,
    source: "generated",
    llmsTxt: buildLlmsTxt(site, described),
    llmsFullTxt: buildLlmsFullTxt(site, described),
    pages: described.length,
    descriptions: byLlm ? "llm" : "page",
    existing: own?.url ?? null,
    ...(used ? { tokensUsed: tokens } : {}),
  };
  return { status: "completed", result, completed: { source: "generated", pages: described.length } };
}

/** The kind of llms.txt jobs (their LLM key is erased by the runner when they end). */
export const llmstxtKind: JobKind = { run: runLlmstxt };
