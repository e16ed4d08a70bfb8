import { LOCAL_ACCOUNT_ID } from "../../../src/auth/principal.ts";
import type { WatchCheckRecord, WatchRecord } from "../../../src/store/types.ts";
import type { PageRequest } from "../context.ts";
import { html, type SafeHtml } from "../html.ts";
import { BASE, notice, time } from "../layout.ts";
import { pageNotFound } from "../page-error.ts";

const LIST_LIMIT = 100;
const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
/** Checks read to find a watch's last change (the service keeps a bounded history anyway). */
const HISTORY_SCAN = 50;
const CHECKS_SHOWN = 20;

/** The account whose watches the viewer sees; null for the operator, who has none. */
function ownerOf(ctx: PageRequest): string | null {
  const session = ctx.signedIn;
  return session.who === "operator" ? null : (session.accountId ?? LOCAL_ACCOUNT_ID);
}

function operatorNotice(ctx: PageRequest): Response {
  return ctx.page(
    "Watches",
    "watches",
    notice("info", "Operator sessions manage keys. Sign in with an account's key to see its watches."),
  );
}

/** A git-style diff with its added and removed lines marked (colour and a visible sign both). */
function diffBlock(diff: string, id: string): SafeHtml {
  const lines = diff
    .trimEnd()
    .split("\n")
    .map((line, i) => {
      const kind =
        line.startsWith("+") && !line.startsWith("+++")
          ? "add"
          : line.startsWith("-") && !line.startsWith("---")
            ? "del"
            : "";
      const marked = kind ? html`<span class="${kind}">${line}</span>` : line;
      return html`${i ? "\n" : ""}${marked}`;
    });
  return html`<pre class="diff" id="${id}" aria-label="Diff of the last change">${lines}</pre>`;
}

/** What the last change of a watch was: its summary, the text added and removed, and the diff. */
function changeBlock(check: WatchCheckRecord | undefined, id: string): SafeHtml {
  if (!check) return html`<p class="hint">No change seen yet.</p>`;
  return html`<div class="change" data-change="${check.id}">
    <p><strong>Changed</strong> ${time(check.checkedAt)}: ${check.summary}</p>
    ${check.addedText.length ? html`<p>Added: ${check.addedText.map((t, i) => html`${i ? "; " : ""}<q>${t}</q>`)}</p>` : ""}
    ${check.removedText.length ? html`<p>Removed: ${check.removedText.map((t, i) => html`${i ? "; " : ""}<q>${t}</q>`)}</p>` : ""}
    ${check.diff ? diffBlock(check.diff, id) : ""}
  </div>`;
}

async function lastChange(ctx: PageRequest, watch: WatchRecord): Promise<WatchCheckRecord | undefined> {
  if (!watch.changeCount) return undefined;
  const checks = await ctx.deps.watches.history(watch, HISTORY_SCAN);
  return checks.find((check) => check.status === "changed");
}

const lastCheckCell = (watch: WatchRecord) =>
  html`${time(watch.lastCheckedAt)}${watch.lastError ? html`<br><span class="status-failed">${watch.lastError}</span>` : ""}`;

/** GET /dashboard/watches: every watch, its last check, and the diff of its last change. */
export async function showWatches(ctx: PageRequest): Promise<Response> {
  const owner = ownerOf(ctx);
  if (owner === null) return operatorNotice(ctx);
  const watches = await ctx.deps.watches.list(owner, LIST_LIMIT, 0);
  if (!watches.length) {
    return ctx.page(
      "Watches",
      "watches",
      html`<p>No watches yet. A watch checks a page on a schedule and tells what changed: <code>POST /v1/watch</code> or <code>siphon watch add URL</code>.</p>`,
    );
  }
  const changes = await Promise.all(watches.map((watch) => lastChange(ctx, watch)));
  const body = html`<p class="lead">Pages checked for changes (as <code>GET /v1/watch</code>).</p>
    <div class="table-wrap"><table>
      <caption>${watches.length} watch${watches.length === 1 ? "" : "es"}</caption>
      <thead><tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Every</th><th scope="col">Last check</th>
        <th scope="col">Last change</th><th scope="col">Changes</th><th scope="col">Next check</th></tr></thead>
      <tbody>${watches.map(
        (watch) => html`<tr data-watch-id="${watch.id}">
          <td><a href="${BASE}/watches/${watch.id}">${watch.name ?? watch.url}</a>${watch.name ? html`<br><span class="hint">${watch.url}</span>` : ""}</td>
          <td class="status-${watch.status === "active" ? "completed" : watch.status === "error" ? "failed" : "cancelled"}">${watch.status}</td>
          <td>${watch.intervalMinutes} min</td>
          <td>${lastCheckCell(watch)}</td>
          <td>${time(watch.lastChangedAt)}</td>
          <td>${watch.changeCount} of ${watch.checkCount}</td>
          <td>${watch.status === "paused" ? "paused" : time(watch.nextCheckAt)}</td>
        </tr>`,
      )}</tbody>
    </table></div>
    <h2>Last changes</h2>
    ${
      changes.some(Boolean)
        ? watches.map((watch, i) =>
            changes[i]
              ? html`<details class="panel" data-watch-change="${watch.id}"><summary>${watch.name ?? watch.url}</summary>${changeBlock(changes[i], `diff-${watch.id}`)}</details>`
              : "",
          )
        : html`<p>No watched page has changed yet.</p>`
    }`;
  return ctx.page("Watches", "watches", body);
}

/** GET /dashboard/watches/:id: one watch, the diff of its last change and its recent checks. */
export async function showWatch(ctx: PageRequest): Promise<Response> {
  const owner = ownerOf(ctx);
  if (owner === null) return operatorNotice(ctx);
  let watch: WatchRecord;
  try {
    watch = await ctx.deps.watches.get(ctx.params.id ?? "", owner);
  } catch {
    throw pageNotFound("This watch");
  }
  const checks = await ctx.deps.watches.history(watch, HISTORY_SCAN);
  const change = checks.find((check) => check.status === "changed");
  const body = html`<p class="lead"><a href="${watch.url}" rel="nofollow noopener noreferrer">${watch.url}</a> · every ${watch.intervalMinutes} min · ${watch.status}</p>
    <div class="stats">
      <div class="stat"><span class="value">${lastCheckCell(watch)}</span>last check</div>
      <div class="stat"><span class="value">${watch.changeCount}</span>${plural(watch.changeCount, "change")} in ${watch.checkCount} ${plural(watch.checkCount, "check")}</div>
      <div class="stat"><span class="value">${watch.status === "paused" ? "paused" : time(watch.nextCheckAt)}</span>next check</div>
    </div>
    <section aria-labelledby="change-heading"><h2 id="change-heading">Last change</h2>${changeBlock(change, "diff")}</section>
    <section aria-labelledby="checks-heading"><h2 id="checks-heading">Recent checks</h2>
    ${
      checks.length
        ? html`<div class="table-wrap"><table>
        <caption>The ${Math.min(checks.length, CHECKS_SHOWN)} latest checks, newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Trigger</th><th scope="col">Result</th><th scope="col">Summary</th></tr></thead>
        <tbody>${checks.slice(0, CHECKS_SHOWN).map(
          (check) => html`<tr><td>${time(check.checkedAt)}</td><td>${check.trigger}</td>
            <td class="${check.status === "error" ? "status-failed" : check.status === "changed" ? "status-processing" : ""}">${check.status}</td>
            <td>${check.error ?? check.summary}</td></tr>`,
        )}</tbody></table></div>`
        : html`<p>Not checked yet.</p>`
    }</section>
    <p><a href="${BASE}/watches">All watches</a></p>`;
  return ctx.page(watch.name ?? "Watch", "watches", body);
}
