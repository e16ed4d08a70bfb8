import { UNLIMITED } from "../../src/auth/plans.ts";
import type { Principal } from "../../src/auth/principal.ts";
import { usageHistory, usageReport } from "../../src/auth/usage-report.ts";
import { nextWeekStart, weekStart } from "../../src/auth/week.ts";
import { type Guard, identify } from "../guard.ts";
import { authRequest, compatPlugin } from "./http.ts";

const DAY_MS = 86_400_000;
/** How many of an account's jobs are counted, at most, per state. */
const COUNT_CAP = 1000;

const who = (guard: Guard, request: Request): Promise<Principal> =>
  Promise.resolve(identify(guard, authRequest(request)));

/** The weekly quota as Firecrawl's credit usage: the week is the billing period. */
async function creditUsage(guard: Guard, request: Request) {
  const report = await usageReport(await who(guard, request), guard);
  const now = guard.now();
  return {
    remaining: report.weekly.remaining,
    plan: report.weekly.limit,
    start: new Date(weekStart(now)).toISOString(),
    end: new Date(nextWeekStart(now)).toISOString(),
  };
}

/** LLM tokens this quota week; siphon has no token quota, so what remains is UNLIMITED. */
async function tokenUsage(guard: Guard, request: Request) {
  const principal = await who(guard, request);
  const now = guard.now();
  // This week alone: the log is read from its Monday on.
  const [week] = await usageHistory(principal, guard, false, 1);
  const start = new Date(weekStart(now)).toISOString();
  return {
    used: week?.tokens ?? 0,
    start,
    end: new Date(nextWeekStart(now)).toISOString(),
  };
}

/** Firecrawl's historical usage (v1 and v2 alike): one period per quota week (per key with byApiKey=true), the key's id as apiKey. */
async function history(guard: Guard, request: Request, field: "credits" | "tokens") {
  const byKey = /^(1|true)$/i.test(new URL(request.url).searchParams.get("byApiKey") ?? "");
  const weeks = await usageHistory(await who(guard, request), guard, byKey);
  return {
    success: true as const,
    periods: weeks.map((week) => {
      const period: Record<string, unknown> = { startDate: week.start, endDate: week.end };
      if (byKey) period.apiKey = week.keyId ?? null;
      period[field === "credits" ? "creditsUsed" : "tokensUsed"] = week[field];
      return period;
    }),
  };
}

/** The account's crawl, batch and agent jobs as Firecrawl's queue: processing ones are active, queued ones wait. */
async function queueStatus(guard: Guard, request: Request) {
  const { account } = await who(guard, request);
  const [active, waiting, completed] = await Promise.all(
    (["processing", "queued", "completed"] as const).map((status) =>
      guard.store.jobs.list({
        accountId: account.id,
        status,
        limit: status === "completed" ? 20 : COUNT_CAP,
      }),
    ),
  );
  const now = guard.now();
  const lastSuccess = Math.max(0, ...(completed ?? []).map((job) => job.finishedAt ?? 0));
  return {
    success: true as const,
    jobsInQueue: (active?.length ?? 0) + (waiting?.length ?? 0),
    activeJobsInQueue: active?.length ?? 0,
    waitingJobsInQueue: waiting?.length ?? 0,
    maxConcurrency: guard.config.browserConcurrency,
    mostRecentSuccess: lastSuccess > now - DAY_MS ? new Date(lastSuccess).toISOString() : null,
  };
}

async function concurrency(guard: Guard, request: Request) {
  const { account } = await who(guard, request);
  const active = await guard.store.jobs.list({
    accountId: account.id,
    status: "processing",
    limit: COUNT_CAP,
  });
  return {
    success: true as const,
    concurrency: active.length,
    maxConcurrency: guard.config.browserConcurrency,
  };
}

/**
 * Firecrawl's team endpoints, v1 and v2: credit usage (siphon's weekly quota, the week as the
 * billing period; v1 in snake_case, v2 in camelCase), queue status (the account's jobs) and
 * the concurrency check. Authenticated, never metered, like GET /v1/cli/usage.
 */
export function teamRoutes(guard: Guard) {
  const doc = (summary: string, description: string) => ({ detail: { summary, description } });
  return compatPlugin("compat:team")
    .get(
      "/v1/team/credit-usage",
      async ({ request }) => {
        const usage = await creditUsage(guard, request);
        return {
          success: true as const,
          data: {
            remaining_credits: usage.remaining,
            plan_credits: usage.plan,
            billing_period_start: usage.start,
            billing_period_end: usage.end,
          },
        };
      },
      doc(
        "Credit usage (Firecrawl v1)",
        "The weekly quota: remaining_credits, plan_credits, the week as the billing period.",
      ),
    )
    .get(
      "/v2/team/credit-usage",
      async ({ request }) => {
        const usage = await creditUsage(guard, request);
        return {
          success: true as const,
          data: {
            remainingCredits: usage.remaining,
            planCredits: usage.plan,
            billingPeriodStart: usage.start,
            billingPeriodEnd: usage.end,
          },
        };
      },
      doc(
        "Credit usage (Firecrawl v2)",
        "The weekly quota: remainingCredits, planCredits, the week as the billing period.",
      ),
    )
    .get(
      "/v1/team/token-usage",
      async ({ request }) => {
        const usage = await tokenUsage(guard, request);
        return {
          success: true as const,
          data: {
            remaining_tokens: UNLIMITED,
            plan_tokens: UNLIMITED,
            tokens_used: usage.used,
            billing_period_start: usage.start,
            billing_period_end: usage.end,
          },
        };
      },
      doc("Token usage (Firecrawl v1)", TOKENS),
    )
    .get(
      "/v2/team/token-usage",
      async ({ request }) => {
        const usage = await tokenUsage(guard, request);
        return {
          success: true as const,
          data: {
            remainingTokens: UNLIMITED,
            planTokens: UNLIMITED,
            tokensUsed: usage.used,
            billingPeriodStart: usage.start,
            billingPeriodEnd: usage.end,
          },
        };
      },
      doc("Token usage (Firecrawl v2)", TOKENS),
    )
    .get(
      "/v1/team/credit-usage/historical",
      ({ request }) => history(guard, request, "credits"),
      doc("Credit usage by week (Firecrawl v1)", HISTORY),
    )
    .get(
      "/v2/team/credit-usage/historical",
      ({ request }) => history(guard, request, "credits"),
      doc("Credit usage by week (Firecrawl v2)", HISTORY),
    )
    .get(
      "/v1/team/token-usage/historical",
      ({ request }) => history(guard, request, "tokens"),
      doc("Token usage by week (Firecrawl v1)", HISTORY),
    )
    .get(
      "/v2/team/token-usage/historical",
      ({ request }) => history(guard, request, "tokens"),
      doc("Token usage by week (Firecrawl v2)", HISTORY),
    )
    .get(
      "/v1/team/queue-status",
      ({ request }) => queueStatus(guard, request),
      doc("Queue status (Firecrawl v1)", QUEUE),
    )
    .get(
      "/v2/team/queue-status",
      ({ request }) => queueStatus(guard, request),
      doc("Queue status (Firecrawl v2)", QUEUE),
    )
    .get(
      "/v1/concurrency-check",
      ({ request }) => concurrency(guard, request),
      doc("Concurrency (Firecrawl v1)", CONC),
    )
    .get(
      "/v2/concurrency-check",
      ({ request }) => concurrency(guard, request),
      doc("Concurrency (Firecrawl v2)", CONC),
    );
}

const QUEUE =
  "The caller's jobs: jobsInQueue, activeJobsInQueue (processing), waitingJobsInQueue (queued), maxConcurrency (SIPHON_BROWSER_CONCURRENCY), mostRecentSuccess (the last job completed in 24 h).";
const CONC = "concurrency: the caller's jobs processing now; maxConcurrency: SIPHON_BROWSER_CONCURRENCY.";
const TOKENS =
  "LLM tokens (input and output) the account's requests used this quota week (extraction, summaries, answers; from the request log): tokensUsed, the week as the billing period; siphon has no token quota, so remaining and plan tokens are 2147483647.";
const HISTORY =
  "{success, periods: [{startDate, endDate, creditsUsed | tokensUsed}]}: one period per quota week (Monday 00:00 UTC) over the last 26 weeks, from the request log (async jobs' pages included, under the key that started the job); ?byApiKey=true splits each week by key (apiKey: the key's id, null for requests without one).";
