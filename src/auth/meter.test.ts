import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import { createAccountWithKey } from "./keys.ts";
import { admit, settle } from "./meter.ts";
import { loadPlans, UNLIMITED } from "./plans.ts";
import { type AuthContext, identifyPrincipal } from "./principal.ts";
import { weekStart } from "./week.ts";

const home = mkdtempSync(join(tmpdir(), "siphon-meter-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("settle", () => {
  test("a request running across the Monday reset is charged to the week it was admitted in", async () => {
    const store = openSqliteStore(join(home, "siphon.db"));
    const config = loadConfig({}, { home });
    // Sunday 2026-11-22 23:59:59.900 UTC.
    let now = Date.UTC(2026, 10, 22, 23, 59, 59, 900);
    const ctx: AuthContext = { config, store, plans: loadPlans(config), now: () => now };
    const { key } = await createAccountWithKey(store.accounts, { name: "t", tier: "pro", kind: "live", now });
    const principal = await identifyPrincipal(new Headers({ authorization: `Bearer ${key}` }), ctx, false);
    const admission = await admit(principal, ctx);
    expect(admission.weekly.resetsAt).toBe(Date.UTC(2026, 10, 23));
    now += 200; // the fetch ends on Monday
    const settlement = await settle(
      admission,
      { credits: 1, route: "fetch", status: 200, durationMs: 200 },
      ctx,
    );
    expect(settlement.weeklyUsed).toBe(1);
    expect(await store.usage.weeklyCredits(principal.account.id, weekStart(admission.at))).toBe(1);
    expect(await store.usage.weeklyCredits(principal.account.id, weekStart(now))).toBe(0);
    await store.close();
  });
});

describe("admit", () => {
  test("an unlimited plan takes no burst slot, is never soft-limited and still reports its credits", async () => {
    const store = openSqliteStore(join(home, "unlimited.db"));
    const config = loadConfig({}, { home });
    const now = Date.UTC(2026, 10, 18, 12);
    const ctx: AuthContext = { config, store, plans: loadPlans(config), now: () => now };
    await store.usage.addCredits("acct_local", weekStart(now), 100_000);
    const slots = spyOn(store.usage, "takeBurstSlot");
    const principal = await identifyPrincipal(new Headers(), ctx, true);
    expect(principal.plan).toMatchObject({ tier: "unlimited", unlimited: true });
    for (let i = 0; i < 3; i++) {
      const admission = await admit(principal, ctx);
      expect(admission).toMatchObject({
        softLimited: false,
        extraUsage: false,
        burst: { limit: UNLIMITED, used: 0, resetAt: now },
        weekly: { limit: UNLIMITED, used: 100_000 + i },
      });
      await settle(admission, { credits: 1, route: "fetch", status: 200, durationMs: 1 }, ctx);
    }
    expect(slots).not.toHaveBeenCalled();
    // A metered plan still counts in its window.
    const { key } = await createAccountWithKey(store.accounts, { name: "t", tier: "max", kind: "live", now });
    await admit(await identifyPrincipal(new Headers({ authorization: `Bearer ${key}` }), ctx, false), ctx);
    expect(slots).toHaveBeenCalledTimes(1);
    await store.close();
  });
});
