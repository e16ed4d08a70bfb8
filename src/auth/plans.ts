import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";

/** One plan tier: weekly quota (soft), hourly burst limit (hard), monthly price and extra-usage price. */
export interface Plan {
  tier: string;
  weeklyQuota: number;
  burstPerHour: number;
  price: number;
  /** Price of one request past the weekly quota when extra usage is enabled. */
  extraPricePerRequest: number;
  /** No weekly quota, no burst window, never degraded: the plan of the local account by default. */
  unlimited: boolean;
}

/** The tier with no limits: the local account's by default (SIPHON_LOCAL_TIER), and a key's account may have it. */
export const UNLIMITED_TIER = "unlimited";

/**
 * What an unlimited plan reports as its weekly and hourly limits (usage
 * headers, /v1/cli/usage): 2^31 - 1, a plain number every client parses,
 * even into a 32-bit integer, where Infinity would not be.
 */
export const UNLIMITED = 2_147_483_647;

/** DECISIONS.md defaults; configuration (SIPHON_PLANS or config.json "plans") is merged over them. */
const DEFAULT_PLANS: Record<string, Omit<Plan, "tier" | "unlimited">> = {
  free: { weeklyQuota: 125, burstPerHour: 25, price: 0, extraPricePerRequest: 0.01 },
  starter: { weeklyQuota: 500, burstPerHour: 50, price: 5, extraPricePerRequest: 0.008 },
  pro: { weeklyQuota: 1250, burstPerHour: 100, price: 9, extraPricePerRequest: 0.006 },
  max: { weeklyQuota: 6250, burstPerHour: 500, price: 29, extraPricePerRequest: 0.004 },
};

const FIELDS = ["weeklyQuota", "burstPerHour", "price", "extraPricePerRequest"] as const;

const UNLIMITED_PLAN: Plan = {
  tier: UNLIMITED_TIER,
  weeklyQuota: UNLIMITED,
  burstPerHour: UNLIMITED,
  price: 0,
  extraPricePerRequest: 0,
  unlimited: true,
};

/**
 * The plan table: the configured tiers over the defaults, plus the built-in
 * `unlimited` tier; throws invalid_request when the configured table is
 * malformed or tries to give `unlimited` limits.
 */
export function loadPlans(config: Config): Map<string, Plan> {
  const table: Record<string, Omit<Plan, "tier" | "unlimited">> = structuredClone(DEFAULT_PLANS);
  if (config.plans) {
    let custom: unknown;
    try {
      custom = JSON.parse(config.plans);
    } catch {
      throw new SiphonError("invalid_request", "SIPHON_PLANS must be a JSON object of tiers");
    }
    if (!custom || typeof custom !== "object")
      throw new SiphonError("invalid_request", "SIPHON_PLANS must be an object");
    for (const [tier, value] of Object.entries(custom as Record<string, Record<string, unknown>>)) {
      if (tier === UNLIMITED_TIER)
        throw new SiphonError("invalid_request", "The unlimited tier has no limits to configure", {
          hint: "Give a limited plan another tier name in SIPHON_PLANS.",
        });
      const plan = { ...(table[tier] ?? DEFAULT_PLANS.free!) };
      for (const field of FIELDS) {
        const v = value?.[field];
        if (v === undefined) continue;
        if (typeof v !== "number" || v < 0)
          throw new SiphonError("invalid_request", `plans.${tier}.${field} must be a non-negative number`);
        plan[field] = v;
      }
      table[tier] = plan;
    }
  }
  const plans = new Map(
    Object.entries(table).map(([tier, plan]) => [tier, { tier, ...plan, unlimited: false }]),
  );
  plans.set(UNLIMITED_TIER, { ...UNLIMITED_PLAN });
  return plans;
}
