import { BURST_WINDOW_MS } from "./meter.ts";
import type { AuthContext, Principal } from "./principal.ts";
import { nextWeekStart, weekStart } from "./week.ts";

/** SPEC CLI usage response. */
export interface UsageReport {
  plan: { tier: string; weeklyLimit: number; burstLimit: number };
  weekly: { used: number; limit: number; remaining: number; resetsAt: string; percentUsed: number };
  burst: { used: number; limit: number; resetsIn: string };
  canFetch: boolean;
  upgradeUrl: string;
}

/** "1h", "37m", "45s": how long until the burst window frees a slot. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds >= 3600)
    return `${Math.floor(seconds / 3600)}h${seconds % 3600 >= 60 ? `${Math.floor((seconds % 3600) / 60)}m` : ""}`;
  if (seconds >= 60) return `${Math.ceil(seconds / 60)}m`;
  return `${seconds}s`;
}

/**
 * The caller's plan, weekly quota and burst window as they stand; reading it
 * is not metered. An unlimited plan reports its limits as UNLIMITED (a
 * number, never Infinity), the real week's credits and hour's requests, and
 * can always fetch.
 */
export async function usageReport(principal: Principal, ctx: AuthContext): Promise<UsageReport> {
  const now = ctx.now();
  const { plan, account } = principal;
  const used = await ctx.store.usage.weeklyCredits(account.id, weekStart(now));
  const burst = await ctx.store.usage.peekBurst(principal.burstSubject, now, BURST_WINDOW_MS);
  return {
    plan: { tier: plan.tier, weeklyLimit: plan.weeklyQuota, burstLimit: plan.burstPerHour },
    weekly: {
      used,
      limit: plan.weeklyQuota,
      remaining: Math.max(0, plan.weeklyQuota - used),
      resetsAt: new Date(nextWeekStart(now)).toISOString(),
      percentUsed: plan.unlimited
        ? 0
        : plan.weeklyQuota
          ? Math.round((used / plan.weeklyQuota) * 1000) / 10
          : 100,
    },
    burst: {
      used: burst.used,
      limit: plan.burstPerHour,
      resetsIn: formatDuration(burst.used ? burst.oldestExpiresAt - now : 0),
    },
    // The weekly quota is soft (requests degrade, never stop); only a full burst window stops a fetch.
    canFetch: plan.unlimited || burst.used < plan.burstPerHour,
    upgradeUrl: ctx.config.upgradeUrl,
  };
}

/** How many quota weeks a usage history goes back (this one included). */
export const HISTORY_WEEKS = 26;
const WEEK_MS = 7 * 86_400_000;

/** One quota week of an account's usage (or one key's, when asked by key). */
export interface UsageWeek {
  /** The week, Monday 00:00 UTC to the next Monday. */
  start: string;
  end: string;
  /** The key's id (null: requests without a key), when asked by key. */
  keyId?: string | null;
  credits: number;
  /** LLM tokens the requests used, as the request log counted them. */
  tokens: number;
}

/**
 * The caller's account's credits and LLM tokens per quota week over the last `weeks` weeks
 * (this one included; default HISTORY_WEEKS), from the request log, oldest first; `byKey`
 * splits each week by key. Weeks without requests are left out. Reading it is not metered.
 */
export async function usageHistory(
  principal: Principal,
  ctx: AuthContext,
  byKey: boolean,
  weeks = HISTORY_WEEKS,
): Promise<UsageWeek[]> {
  const since = weekStart(ctx.now()) - (weeks - 1) * WEEK_MS;
  const periods = await ctx.store.usage.periods(principal.account.id, since, byKey);
  return periods.map((period) => {
    const week: UsageWeek = {
      start: new Date(period.start).toISOString(),
      end: new Date(period.start + WEEK_MS).toISOString(),
      credits: period.credits,
      tokens: period.tokens,
    };
    if (byKey) week.keyId = period.keyId ?? null;
    return week;
  });
}
