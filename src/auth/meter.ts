import { SiphonError } from "../errors.ts";
import type { Awaitable, BurstVerdict, Store } from "../store/types.ts";
import type { AuthContext, Principal } from "./principal.ts";
import { nextWeekStart, weekStart } from "./week.ts";

/** The burst limit is a true sliding window over the last hour. */
export const BURST_WINDOW_MS = 3_600_000;
const MICROS = 1_000_000;

/** What admission decided for one metered request. */
export interface Admission {
  principal: Principal;
  /** When it was admitted (ms since epoch): the time its burst slot, log row and week are counted at. */
  at: number;
  burst: { limit: number; used: number; resetAt: number };
  weekly: { limit: number; used: number; resetsAt: number };
  /** Over the weekly quota and no extra usage: the request runs HTTP-only. */
  softLimited: boolean;
  /** Over the weekly quota with extra usage: full features, charged per credit. */
  extraUsage: boolean;
}

/** What settling a request charged. */
export interface Settlement {
  credits: number;
  weeklyUsed: number;
  /** Extra usage charged for this request, in price units, and the balance left. */
  extraCharged?: number;
  extraBalance?: number;
}

function refuse(verdict: BurstVerdict, limit: number, now: number): never {
  const retryAfter = Math.max(1, Math.ceil((verdict.oldestExpiresAt - now) / 1000));
  throw new SiphonError("rate_limited", `The hourly burst limit of ${limit} requests is reached`, {
    hint: `Retry in ${retryAfter} s, or move to a bigger plan.`,
    headers: {
      "retry-after": String(retryAfter),
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(Math.ceil(verdict.oldestExpiresAt / 1000)),
      "x-burst-limit": String(limit),
      "x-burst-used": String(verdict.used),
      "x-burst-remaining": "0",
    },
  });
}

/** The admission once the burst window and the week's credits are known. */
function admission(principal: Principal, verdict: BurstVerdict, used: number, now: number): Admission {
  const { plan, account } = principal;
  const over = used >= plan.weeklyQuota;
  const extraUsage =
    over &&
    account.extraUsageEnabled &&
    account.extraBalanceMicros >= Math.round(plan.extraPricePerRequest * MICROS);
  return {
    principal,
    at: now,
    burst: { limit: plan.burstPerHour, used: verdict.used, resetAt: verdict.oldestExpiresAt },
    weekly: { limit: plan.weeklyQuota, used, resetsAt: nextWeekStart(now) },
    softLimited: over && !extraUsage,
    extraUsage,
  };
}

function admitCounted(
  principal: Principal,
  verdict: BurstVerdict,
  now: number,
  ctx: AuthContext,
): Awaitable<Admission> {
  if (!verdict.allowed) refuse(verdict, principal.plan.burstPerHour, now);
  const used = ctx.store.usage.weeklyCredits(principal.account.id, weekStart(now));
  return used instanceof Promise
    ? used.then((credits) => admission(principal, verdict, credits, now))
    : admission(principal, verdict, used, now);
}

/** An unlimited plan's admission: nothing to refuse or degrade; the week's credits are read only to report them. */
function admissionUnlimited(principal: Principal, used: number, now: number): Admission {
  const limit = principal.plan.burstPerHour;
  return {
    principal,
    at: now,
    // No window is kept, so it reads as empty: nothing used, nothing waiting to leave it.
    burst: { limit, used: 0, resetAt: now },
    weekly: { limit: principal.plan.weeklyQuota, used, resetsAt: nextWeekStart(now) },
    softLimited: false,
    extraUsage: false,
  };
}

/**
 * Admits a metered request: counts it in the key's sliding burst window
 * (hard: 429 rate_limited with Retry-After and X-RateLimit-* when full) and
 * reads the weekly quota (soft: past it, the request is marked HTTP-only
 * unless extra usage pays for it). An unlimited plan skips the window and
 * the quota: it is never refused or degraded. Synchronous when the store
 * is; throws (or rejects) rate_limited.
 */
export function admit(principal: Principal, ctx: AuthContext): Awaitable<Admission> {
  const now = ctx.now();
  if (principal.plan.unlimited) {
    const used = ctx.store.usage.weeklyCredits(principal.account.id, weekStart(now));
    return used instanceof Promise
      ? used.then((credits) => admissionUnlimited(principal, credits, now))
      : admissionUnlimited(principal, used, now);
  }
  const verdict = ctx.store.usage.takeBurstSlot(
    principal.burstSubject,
    now,
    BURST_WINDOW_MS,
    principal.plan.burstPerHour,
  );
  return verdict instanceof Promise
    ? verdict.then((counted) => admitCounted(principal, counted, now, ctx))
    : admitCounted(principal, verdict, now, ctx);
}

/** Work done after the request that asked for it: a job's page or run, a scheduled watch check. */
export interface LaterWork {
  accountId: string;
  /** The key the work was asked for with; null when keyless (or unknown, for a scheduled check). */
  keyId: string | null;
  /** The route that started it (crawl, batch, agent, extract, watch). */
  route: string;
  credits: number;
  /** LLM tokens (input and output) it used. */
  tokens?: number;
  at: number;
}

/**
 * Charges later work to its account's week and logs it in the request log as no request (its
 * start was counted), so the usage history's credits and tokens include it.
 */
export async function chargeLaterWork(store: Store, work: LaterWork): Promise<void> {
  if (work.credits) await store.usage.addCredits(work.accountId, weekStart(work.at), work.credits);
  await store.usage.logRequest({
    accountId: work.accountId,
    keyId: work.keyId,
    route: work.route,
    status: 200,
    durationMs: 0,
    credits: work.credits,
    tokens: work.tokens ?? 0,
    at: work.at,
    count: 0,
  });
}

/** Adds a request's credits to the week and charges extra usage when it applies. */
async function charge(admission: Admission, credits: number, now: number, ctx: AuthContext) {
  const { account, plan } = admission.principal;
  const settlement: Settlement = { credits, weeklyUsed: admission.weekly.used };
  settlement.weeklyUsed = await ctx.store.usage.addCredits(account.id, weekStart(now), credits);
  if (admission.extraUsage) {
    const micros = Math.round(plan.extraPricePerRequest * MICROS) * credits;
    const balance = await ctx.store.accounts.chargeExtra(account.id, -micros);
    if (balance !== null) {
      settlement.extraCharged = micros / MICROS;
      settlement.extraBalance = balance / MICROS;
    }
  }
  return settlement;
}

/**
 * Records what a request cost: weekly credits, the extra-usage charge, and a
 * request-log row, all at the time it was admitted (the week it was admitted
 * in pays for it). Synchronous for a request that cost no credit (a cache
 * hit, an error) when the store is.
 */
export function settle(
  admission: Admission,
  outcome: { credits: number; route: string; status: number; durationMs: number; tokens?: number },
  ctx: AuthContext,
): Awaitable<Settlement> {
  const { account, key } = admission.principal;
  const now = admission.at;
  const logged = ctx.store.usage.logRequest({
    accountId: account.id,
    keyId: key?.id ?? null,
    route: outcome.route,
    status: outcome.status,
    durationMs: Math.round(outcome.durationMs),
    credits: outcome.credits,
    tokens: outcome.tokens ?? 0,
    at: now,
  });
  const settlement: Awaitable<Settlement> =
    outcome.credits > 0
      ? charge(admission, outcome.credits, now, ctx)
      : { credits: 0, weeklyUsed: admission.weekly.used };
  return logged instanceof Promise ? logged.then(() => settlement) : settlement;
}

/** An amount with up to 6 decimals and no trailing zeros. */
function money(amount: number): string {
  return amount.toFixed(6).replace(/\.?0+$/, "");
}

let resetsAtMs = 0;
let resetsAtIso = "";

/** The week's reset time in ISO form, built once per week rather than once per request. */
function isoResetsAt(ms: number): string {
  if (ms !== resetsAtMs) {
    resetsAtIso = new Date(ms).toISOString();
    resetsAtMs = ms;
  }
  return resetsAtIso;
}

/**
 * Writes the usage headers of a metered response (SPEC "Response headers")
 * into `target`; numbers stay numbers, for the response builder to turn into
 * text only when they differ from the previous response's.
 */
export function writeUsageHeaders(
  target: Record<string, string | number>,
  admission: Admission,
  settlement: Settlement,
): void {
  const { weekly, burst } = admission;
  // Two headers carry it and it changes with every request: made text once.
  const burstRemaining = String(Math.max(0, burst.limit - burst.used));
  target["x-credits-used"] = settlement.credits;
  target["x-service-plan"] = admission.principal.plan.tier;
  target["x-weekly-limit"] = weekly.limit;
  target["x-weekly-used"] = settlement.weeklyUsed;
  target["x-weekly-remaining"] = Math.max(0, weekly.limit - settlement.weeklyUsed);
  target["x-weekly-resets-at"] = isoResetsAt(weekly.resetsAt);
  target["x-burst-limit"] = burst.limit;
  target["x-burst-used"] = burst.used;
  target["x-burst-remaining"] = burstRemaining;
  target["x-ratelimit-limit"] = burst.limit;
  target["x-ratelimit-remaining"] = burstRemaining;
  target["x-ratelimit-reset"] = Math.ceil(burst.resetAt / 1000);
  if (admission.softLimited) {
    target["x-soft-limited"] = "true";
    target["x-degraded"] =
      "Weekly quota used up: HTTP-only fetching (no browser rendering or stealth) until it resets";
  }
  if (settlement.extraCharged !== undefined) {
    target["x-extra-usage-charged"] = money(settlement.extraCharged);
    target["x-extra-usage-new-balance"] = money(settlement.extraBalance ?? 0);
  }
}

/** The usage headers of a metered response as text (for error answers). */
export function usageHeaders(admission: Admission, settlement: Settlement): Record<string, string> {
  const values: Record<string, string | number> = {};
  writeUsageHeaders(values, admission, settlement);
  const headers: Record<string, string> = {};
  for (const name in values) headers[name] = String(values[name]);
  return headers;
}
