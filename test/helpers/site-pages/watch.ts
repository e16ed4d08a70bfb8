import { html } from "./dynamic.ts";
import { esc } from "./layout.ts";

/**
 * Pages for watch tests (change monitoring), under /watch/...:
 * - /watch/pricing/<id>: a pricing page whose plans a test sets (setWatchPlans) between checks,
 *   with a "last updated" line and a visitor counter that change on every request, as real
 *   pages' do. Each <id> is a page of its own, so tests do not share state.
 * - /watch/clock/<id>: a page that only tells the time (in several spellings), a relative time
 *   and audience counters, all different on every request, around text that never changes.
 */

/** One plan of a pricing page. */
export interface WatchPlan {
  name: string;
  price: string;
}

/** The plans a pricing page starts with. */
export const WATCH_PLANS: readonly WatchPlan[] = [
  { name: "Starter", price: "$9 per month" },
  { name: "Pro", price: "$29 per month" },
];

/** The sentence of the clock page that never changes. */
export const CLOCK_PAGE_TEXT =
  "The harbour office is open every day; tide tables for the month are pinned beside the door.";

const plans = new Map<string, readonly WatchPlan[]>();
let requests = 0;

/** Sets the plans /watch/pricing/<id> shows from its next request on. */
export function setWatchPlans(id: string, next: readonly WatchPlan[]): void {
  plans.set(id, next);
}

/** Everything that changes on each request: the time in several spellings and some counters. */
function ticking(): { time: Date; n: number } {
  requests += 1;
  // A second per request on top of the real time, so two requests in one second still differ.
  return { time: new Date(Date.now() + requests * 1000), n: requests };
}

function pricingPage(id: string): string {
  const { time, n } = ticking();
  const rows = (plans.get(id) ?? WATCH_PLANS)
    .map((plan) => `<li class="plan"><h3>${esc(plan.name)}</h3><p>${esc(plan.price)}</p></li>`)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Pricing - Harbour Tools</title></head>
<body>
  <main>
    <h1>Pricing</h1>
    <p>Every plan includes unlimited tide tables and chart downloads.</p>
    <section id="plans"><ul>
${rows}
    </ul></section>
    <p class="updated">Last updated ${time.toISOString()}</p>
    <p>${1000 + n * 7} visitors this week</p>
  </main>
</body></html>`;
}

function clockPage(): string {
  const { time, n } = ticking();
  const utc = time.toUTCString();
  const clock = time.toISOString().slice(11, 19);
  const day = time.toLocaleDateString("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Harbour office</title></head>
<body>
  <main>
    <h1>Harbour office</h1>
    <p>${CLOCK_PAGE_TEXT}</p>
    <p>Local time: ${clock} (${utc})</p>
    <p>Today is ${day}.</p>
    <p>Page generated ${time.toISOString()}, updated ${(n % 50) + 2} minutes ago.</p>
    <p>${(12_000 + n * 13).toLocaleString("en-US")} views · ${n + 3} people online · Visitors: ${400 + n}</p>
  </main>
</body></html>`;
}

/** The answer for a /watch/... path, or undefined for any other path. */
export function watchRoute(url: URL): Response | undefined {
  const match = /^\/watch\/(pricing|clock)\/([\w-]+)$/.exec(url.pathname);
  if (!match) return undefined;
  return html(match[1] === "pricing" ? pricingPage(match[2] as string) : clockPage());
}
