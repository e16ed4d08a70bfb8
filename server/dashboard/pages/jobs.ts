import { LOCAL_ACCOUNT_ID } from "../../../src/auth/principal.ts";
import { SiphonError } from "../../../src/errors.ts";
import { findJob, finishedCount, isEnded, readResults } from "../../../src/jobs/read.ts";
import type { JobItem, JobRecord } from "../../../src/store/types.ts";
import { eventStream, progressOf } from "../../routes/jobs.ts";
import type { PageRequest } from "../context.ts";
import { html, type SafeHtml } from "../html.ts";
import { BASE, csrfField, notice, time } from "../layout.ts";
import { renderMarkdown } from "../markdown.ts";
import { pageNotFound } from "../page-error.ts";

const LIST_LIMIT = 50;
const PAGES_PER_SCREEN = 20;

const finished = finishedCount;
const running = (job: JobRecord) => !isEnded(job);
const JOB_TYPES = ["crawl", "batch", "agent", "extract", "llmstxt"] as const;

/** The account whose jobs the viewer sees; null for the operator, who has none. */
function ownerOf(ctx: PageRequest): string | null {
  const session = ctx.signedIn;
  if (session.who === "operator") return null;
  return session.accountId ?? LOCAL_ACCOUNT_ID;
}

function operatorNotice(ctx: PageRequest, title: string): Response {
  return ctx.page(
    title,
    "jobs",
    notice("info", "Operator sessions manage keys. Sign in with an account's key to see its jobs."),
  );
}

/** The job `:id` if it is the viewer's and has not expired (as the API's polls decide). */
async function ownedJob(ctx: PageRequest): Promise<JobRecord> {
  const owner = ownerOf(ctx);
  if (owner === null) throw pageNotFound("This job");
  const caller = { accountId: owner, now: ctx.guard.now() };
  return findJob(ctx.guard.store, caller, ctx.params.id ?? "", JOB_TYPES).catch((error) => {
    throw error instanceof SiphonError && error.type === "not_found" ? pageNotFound("This job") : error;
  });
}

/** A job's progress: the bar, its percentage, status and counts, kept live by the script when it runs. */
function progressCells(job: JobRecord): SafeHtml {
  const percent = progressOf(job);
  return html`<td><span data-status class="status-${job.status}">${job.status}</span></td>
    <td><progress max="100" value="${percent}" aria-label="Progress of ${job.id}">${percent}%</progress>
      <span data-percent>${percent}%</span></td>
    <td><span data-counts>${finished(job)} of ${job.total}</span>${job.failed ? html` <span class="hint">(${job.failed} failed)</span>` : ""}</td>`;
}

function liveAttribute(job: JobRecord): SafeHtml | string {
  return running(job) ? html` data-job-events="${BASE}/jobs/${job.id}/events"` : "";
}

/** GET /dashboard/jobs */
export async function showJobs(ctx: PageRequest): Promise<Response> {
  const owner = ownerOf(ctx);
  if (owner === null) return operatorNotice(ctx, "Jobs");
  const now = ctx.guard.now();
  const jobs = (await ctx.guard.store.jobs.list({ accountId: owner, limit: LIST_LIMIT })).filter(
    (job) => job.expiresAt === null || job.expiresAt >= now,
  );
  const body = jobs.length
    ? html`<p class="lead">Crawls, batches, extractions and agent runs of the last day (as <code>GET /v1/jobs</code>); running jobs update live.</p>
    <div class="table-wrap"><table>
      <caption>${jobs.length} job${jobs.length === 1 ? "" : "s"}, newest first</caption>
      <thead><tr><th scope="col">Job</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Progress</th>
        <th scope="col">Pages</th><th scope="col">Credits</th><th scope="col">Started</th></tr></thead>
      <tbody>${jobs.map(
        (job) => html`<tr data-job-id="${job.id}"${liveAttribute(job)}>
          <td><a class="mono" href="${BASE}/jobs/${job.id}">${job.id}</a></td>
          <td>${job.type}</td>
          ${progressCells(job)}
          <td>${job.creditsUsed}</td>
          <td>${time(job.createdAt)}</td>
        </tr>`,
      )}</tbody>
    </table></div>`
    : html`<p>No jobs in the last day. Start one with <code>POST /v1/crawl</code>, <code>siphon crawl URL</code> or <code>siphon batch</code>.</p>`;
  return ctx.page("Jobs", "jobs", body);
}

interface PageData {
  url?: string;
  title?: string;
  markdown?: string;
  content?: string;
  statusCode?: number;
  error?: { type?: string; message?: string } | string;
  data?: unknown;
}

function pageEntry(item: JobItem, index: number): SafeHtml {
  const data = (item.data ?? {}) as PageData;
  const url = data.url ?? item.url;
  const markdown = data.markdown ?? data.content;
  const error = item.error ?? (typeof data.error === "string" ? data.error : data.error?.message);
  const id = `page-${index}`;
  return html`<li>
    <details>
      <summary>${data.title || url} <span class="hint">${url}${data.statusCode ? ` · HTTP ${data.statusCode}` : ""}${item.state === "failed" ? " · failed" : ""}</span></summary>
      ${error ? notice("error", error) : ""}
      ${
        markdown !== undefined
          ? html`<div class="side-by-side">
        <section aria-labelledby="${id}-rendered"><h3 id="${id}-rendered">Rendered</h3><div class="rendered">${renderMarkdown(markdown)}</div></section>
        <section aria-labelledby="${id}-raw"><h3 id="${id}-raw">Markdown</h3><pre>${markdown}</pre></section>
      </div>`
          : data.data !== undefined
            ? html`<pre>${JSON.stringify(data.data, null, 2)}</pre>`
            : ""
      }
    </details>
  </li>`;
}

function agentResult(job: JobRecord): SafeHtml | string {
  const result = job.result as { answer?: string } | null;
  if (!result?.answer) return "";
  return html`<section aria-labelledby="answer-heading"><h2 id="answer-heading">Answer</h2>
    <div class="rendered">${renderMarkdown(result.answer)}</div></section>`;
}

/** GET /dashboard/jobs/:id: the job, live, with its pages and their markdown. */
export async function showJob(ctx: PageRequest): Promise<Response> {
  if (ownerOf(ctx) === null) return operatorNotice(ctx, "Job");
  const job = await ownedJob(ctx);
  const skip = Math.max(0, Math.floor(Number(ctx.url.searchParams.get("skip") ?? 0)) || 0);
  const { items, next } = await readResults(ctx.guard.store, job, skip, PAGES_PER_SCREEN);
  const done = finished(job);
  const pager = html`<nav aria-label="Pages of results" class="actions">
    ${skip > 0 ? html`<a href="${BASE}/jobs/${job.id}?skip=${Math.max(0, skip - PAGES_PER_SCREEN)}">Previous ${PAGES_PER_SCREEN}</a>` : ""}
    ${next !== null ? html`<a href="${BASE}/jobs/${job.id}?skip=${next}">Next ${PAGES_PER_SCREEN}</a>` : ""}
  </nav>`;
  const body = html`
    ${ctx.url.searchParams.get("cancelled") ? notice("ok", `Cancel requested: the job is ${job.status}.`) : ""}
    <div class="table-wrap"><table>
      <caption>Job ${job.id}</caption>
      <thead><tr><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Pages</th>
        <th scope="col">Credits</th><th scope="col">Started</th><th scope="col">Ended</th><th scope="col">Kept until</th></tr></thead>
      <tbody><tr id="job-progress" data-job-id="${job.id}" data-live-list="live-pages"${liveAttribute(job)}>
        <td>${job.type}</td>
        ${progressCells(job)}
        <td>${job.creditsUsed}</td><td>${time(job.createdAt)}</td><td>${time(job.finishedAt)}</td><td>${time(job.expiresAt)}</td>
      </tr></tbody>
    </table></div>
    ${job.error ? notice("error", job.error) : ""}
    ${
      running(job)
        ? html`<form method="post" action="${BASE}/jobs/${job.id}/cancel" class="actions">
      ${csrfField(ctx.csrf)}
      <button type="submit" class="danger">Cancel job</button>
      <span class="hint">Pages already fetched are kept.</span>
    </form>`
        : ""
    }
    ${agentResult(job)}
    ${
      job.type === "agent"
        ? ""
        : html`<section aria-labelledby="pages-heading">
      <h2 id="pages-heading">Pages${done ? ` (${skip + 1}–${skip + items.length} of ${done})` : ""}</h2>
      ${items.length ? html`<ol class="pages" start="${skip + 1}">${items.map((item, i) => pageEntry(item, skip + i))}</ol>` : html`<p>No page has finished yet.</p>`}
      ${running(job) ? html`<div hidden><h3>Finished since this page loaded</h3><ul id="live-pages" aria-live="polite"></ul></div>` : ""}
      ${pager}
    </section>`
    }
    <p><a href="${BASE}/jobs">All jobs</a></p>`;
  return ctx.page(`${job.type[0]?.toUpperCase()}${job.type.slice(1)} job`, "jobs", body);
}

/** GET /dashboard/jobs/:id/events: the API's event stream of the job (SSE). */
export async function jobEvents(ctx: PageRequest): Promise<Response> {
  const job = await ownedJob(ctx);
  return eventStream(ctx.deps.runner, job, ctx.request);
}

/** POST /dashboard/jobs/:id/cancel */
export async function cancelJob(ctx: PageRequest): Promise<Response> {
  const job = await ownedJob(ctx);
  await ctx.deps.runner.cancel(job.id);
  return ctx.redirect(`${BASE}/jobs/${job.id}?cancelled=1`);
}
