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
}

/** DECISIONS.md defaults; configuration (SIPHON_PLANS or config.json "plans") is merged over them. */
const DEFAULT_PLANS: Record<string, Omit<Plan, "tier">> = {
  free: { weeklyQuota: 125, burstPerHour: 25, price: 0, extraPricePerRequest: 0.01 },
  starter: { weeklyQuota: 500, burstPerHour: 50, price: 5, extraPricePerRequest: 0.008 },
  pro: { weeklyQuota: 1250, burstPerHour: 100, price: 9, extraPricePerRequest: 0.006 },
  max: { weeklyQuota: 6250, burstPerHour: 500, price: 29, extraPricePerRequest: 0.004 },
};

const FIELDS = ["weeklyQuota", "burstPerHour", "price", "extraPricePerRequest"] as const;

/** The plan table; throws invalid_request when the configured table is malformed. */
export function loadPlans(config: Config): Map<string, Plan> {
  const table: Record<string, Omit<Plan, "tier">> = structuredClone(DEFAULT_PLANS);
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
  return new Map(Object.entries(table).map(([tier, plan]) => [tier, { tier, ...plan }]));
}
