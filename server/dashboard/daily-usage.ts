import type { Store } from "../../src/store/types.ts";
import { seriesStart, type UsageDay, usageSeries } from "./usage-series.ts";

/**
 * An account's last `days` UTC days of requests and success rate, from the request log
 * GET /v1/stats reads.
 */
export async function dailyUsage(
  store: Store,
  accountId: string,
  now: number,
  days: number,
): Promise<UsageDay[]> {
  return usageSeries(await store.usage.daily(accountId, seriesStart(now, days)), now, days);
}
