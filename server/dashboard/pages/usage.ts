import { UNLIMITED } from "../../../src/auth/plans.ts";
import { type UsageReport, usageReport } from "../../../src/auth/usage-report.ts";
import type { PageRequest } from "../context.ts";
import { dailyUsage } from "../daily-usage.ts";
import { html, type SafeHtml } from "../html.ts";
import { BASE, notice, time } from "../layout.ts";
import { seriesTotals, type UsageDay } from "../usage-series.ts";

const DAYS = 30;
const number = (n: number) => n.toLocaleString("en-US");
const limitText = (n: number) => (n >= UNLIMITED ? "unlimited" : number(n));

function meterRow(
  label: string,
  id: string,
  used: number,
  limit: number,
  detail: SafeHtml | string,
): SafeHtml {
  const unlimited = limit >= UNLIMITED;
  return html`<div class="meter-row">
    <span id="${id}-label">${label}</span>
    ${
      unlimited
        ? html`<span class="hint">no limit</span>`
        : html`<meter id="${id}" aria-labelledby="${id}-label" min="0" max="${limit}" low="${Math.round(limit * 0.8)}" high="${Math.round(limit * 0.95)}" optimum="0" value="${Math.min(used, limit)}">${used} of ${limit}</meter>`
    }
    <span><strong data-${id}-used>${number(used)}</strong> of ${limitText(limit)} ${detail}</span>
  </div>`;
}

const W = 720;
const H = 220;
const PAD = { left: 44, right: 44, top: 12, bottom: 28 };

/** Requests per day as bars and the success rate as a line, drawn on the server: no script needed. */
function chart(series: UsageDay[]): SafeHtml {
  const max = Math.max(1, ...series.map((d) => d.requests));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / series.length;
  const y = (value: number, top: number) => PAD.top + plotH - (value / top) * plotH;
  const bars = series.map((d, i) => {
    const height = (d.requests / max) * plotH;
    return html`<rect class="bar" x="${(PAD.left + i * step + step * 0.15).toFixed(1)}" y="${(PAD.top + plotH - height).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${height.toFixed(1)}"><title>${d.date}: ${d.requests} requests${d.successRate === null ? "" : `, ${d.successRate}% succeeded`}</title></rect>`;
  });
  const points = series
    .map((d, i) =>
      d.successRate === null
        ? null
        : `${(PAD.left + (i + 0.5) * step).toFixed(1)},${y(d.successRate, 100).toFixed(1)}`,
    )
    .filter((p): p is string => p !== null);
  const totals = seriesTotals(series);
  const first = series[0]?.date ?? "";
  const last = series.at(-1)?.date ?? "";
  return html`<figure class="chart">
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
      <title id="chart-title">Requests per day and success rate, ${first} to ${last}</title>
      <desc id="chart-desc">${number(totals.requests)} requests in ${series.length} days${totals.successRate === null ? "" : `, ${totals.successRate}% succeeded, busiest day ${number(max)} requests`}. The table below lists every day.</desc>
      <line class="axis" x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${W - PAD.right}" y2="${PAD.top + plotH}"/>
      <line class="axis" x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}"/>
      <text x="${PAD.left - 6}" y="${PAD.top + 10}" text-anchor="end">${number(max)}</text>
      <text x="${PAD.left - 6}" y="${PAD.top + plotH}" text-anchor="end">0</text>
      <text x="${W - PAD.right + 6}" y="${PAD.top + 10}">100%</text>
      <text x="${W - PAD.right + 6}" y="${PAD.top + plotH}">0%</text>
      <text x="${PAD.left}" y="${H - 8}">${first}</text>
      <text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${last}</text>
      ${bars}
      ${points.length > 1 ? html`<polyline class="rate" points="${points.join(" ")}"/>` : ""}
    </svg>
    <figcaption class="legend"><span><span class="swatch bar"></span>Requests per day</span><span><span class="swatch rate"></span>Success rate (answers below 400)</span></figcaption>
  </figure>
  <details>
    <summary>The numbers, day by day</summary>
    <div class="table-wrap"><table>
      <caption>Requests and success rate per day (UTC)</caption>
      <thead><tr><th scope="col">Day</th><th scope="col">Requests</th><th scope="col">Succeeded</th><th scope="col">Success rate</th></tr></thead>
      <tbody>${series.map(
        (d) =>
          html`<tr><th scope="row">${d.date}</th><td>${number(d.requests)}</td><td>${number(d.succeeded)}</td><td>${d.successRate === null ? "—" : `${d.successRate}%`}</td></tr>`,
      )}</tbody>
    </table></div>
  </details>`;
}

function planPanel(report: UsageReport, price: number | undefined, unlimited: boolean): SafeHtml {
  return html`<section class="panel" aria-labelledby="plan-heading">
    <h2 id="plan-heading">Plan: <span data-plan>${report.plan.tier}</span></h2>
    <p>${price === undefined || report.plan.tier === "unlimited" ? "" : price === 0 ? "Free. " : `${price} a month. `}Weekly quota ${limitText(report.plan.weeklyLimit)} credits, burst limit ${limitText(report.plan.burstLimit)} requests an hour.</p>
    ${unlimited ? html`<p>No quota and no hourly limit: nothing to upgrade.</p>` : html`<p><a href="${report.upgradeUrl}" rel="noopener">Upgrade your plan</a></p>`}
  </section>`;
}

/** GET /dashboard/usage: the week's credits, the burst window, 30 days of requests, the plan. */
export async function showUsage(ctx: PageRequest): Promise<Response> {
  const principal = await ctx.sessions.principal(ctx.signedIn);
  if (!principal) {
    return ctx.page(
      "Usage",
      "usage",
      notice(
        "info",
        html`Operator sessions manage keys (<a href="${BASE}/keys">Keys</a>). Sign in with an account's key to see its usage, jobs and watches.`,
      ),
    );
  }
  const now = ctx.guard.now();
  const report = await usageReport(principal, ctx.guard);
  const stats = await ctx.guard.store.usage.stats(principal.account.id);
  const series = await dailyUsage(ctx.guard.store, principal.account.id, now, DAYS);
  const plan = ctx.guard.plans.get(report.plan.tier);
  const body = html`
    <p class="lead">The same numbers as <code>GET /v1/cli/usage</code> and <code>GET /v1/stats</code>, for account <code>${principal.account.id}</code>.</p>
    ${report.canFetch ? "" : notice("error", html`The burst window is full: requests are refused for ${report.burst.resetsIn}.`)}
    ${!plan?.unlimited && report.weekly.used >= report.weekly.limit ? notice("warn", "The weekly quota is used up: requests still run, HTTP-only (no browser, no stealth), until the reset.") : ""}
    <section aria-labelledby="now-heading">
      <h2 id="now-heading">This week</h2>
      ${meterRow("Weekly credits", "weekly", report.weekly.used, report.weekly.limit, html`<span class="hint">resets ${time(Date.parse(report.weekly.resetsAt))}</span>`)}
      ${meterRow("Burst window (last hour)", "burst", report.burst.used, report.burst.limit, html`<span class="hint">requests; ${plan?.unlimited ? "no hourly limit" : report.burst.used ? `a slot frees in ${report.burst.resetsIn}` : "empty"}</span>`)}
    </section>
    ${planPanel(report, plan?.price, plan?.unlimited === true)}
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Last ${DAYS} days</h2>
      ${chart(series)}
    </section>
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading">All time</h2>
      <div class="stats">
        <div class="stat"><span class="value" data-total-requests>${number(stats.totalRequests)}</span>requests</div>
        <div class="stat"><span class="value">${stats.successRate}%</span>succeeded</div>
        <div class="stat"><span class="value">${number(Math.round(stats.avgResponseTime))} ms</span>average response time</div>
      </div>
    </section>`;
  return ctx.page("Usage", "usage", body);
}
