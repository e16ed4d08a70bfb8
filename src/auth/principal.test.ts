import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import { createAccountWithKey, issueKey } from "./keys.ts";
import { loadPlans } from "./plans.ts";
import { type AuthContext, ensureLocalAccount, identifyPrincipal, LOCAL_ACCOUNT_ID } from "./principal.ts";

const home = mkdtempSync(join(tmpdir(), "siphon-principal-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("identifyPrincipal", () => {
  test("remembers a key's principal until a write, a revocation or the last-used touch is due", async () => {
    const store = openSqliteStore(join(home, "siphon.db"));
    const config = loadConfig({}, { home });
    let now = Date.UTC(2026, 10, 18, 12);
    const ctx: AuthContext = { config, store, plans: loadPlans(config), now: () => now };
    const { key, info } = await createAccountWithKey(store.accounts, {
      name: "t",
      tier: "pro",
      kind: "live",
      now,
    });
    const headers = new Headers({ authorization: `Bearer ${key}` });
    const lookups = spyOn(store.accounts, "findKeyByHash");

    const first = await identifyPrincipal(headers, ctx, false);
    expect(first.key?.id).toBe(info.id);
    expect(first.plan.tier).toBe("pro");
    // The first use touched last-used (a write): the next request reads the key again, once.
    await identifyPrincipal(headers, ctx, false);
    const settled = lookups.mock.calls.length;
    const again = identifyPrincipal(headers, ctx, false);
    expect(again).not.toBeInstanceOf(Promise);
    expect((await again).key?.id).toBe(info.id);
    expect(lookups.mock.calls.length).toBe(settled);

    // A minute later last-used is due again: the key is read and touched.
    now += 61_000;
    await identifyPrincipal(headers, ctx, false);
    expect(lookups.mock.calls.length).toBe(settled + 1);
    expect((await store.accounts.listKeys())[0]?.lastUsedAt).toBe(now);

    await store.accounts.revokeKey(info.id, now);
    const refused = await Promise.resolve(identifyPrincipal(headers, ctx, false)).catch((e) => e);
    expect(refused).toBeInstanceOf(SiphonError);
    expect((refused as SiphonError).type).toBe("invalid_token");
    await store.close();
  });

  test("only the canonical way of presenting a key is remembered", async () => {
    const store = openSqliteStore(join(home, "canonical.db"));
    const config = loadConfig({}, { home });
    const ctx: AuthContext = { config, store, plans: loadPlans(config), now: Date.now };
    const { key } = await createAccountWithKey(store.accounts, {
      name: "t",
      tier: "pro",
      kind: "live",
      now: 0,
    });
    // The first use touches last-used; after it, a remembered form answers without a promise.
    const settle = async (headers: Headers) => {
      await identifyPrincipal(headers, ctx, false);
      await identifyPrincipal(headers, ctx, false);
      // Wrapped: an async function would otherwise resolve the promise it returns.
      return { answer: identifyPrincipal(headers, ctx, false) };
    };
    for (const headers of [
      new Headers({ authorization: `Bearer ${key}` }),
      new Headers({ "x-api-key": key }),
    ])
      expect((await settle(headers)).answer).not.toBeInstanceOf(Promise);
    // Padded or re-cased forms still authenticate, but each goes the long way: none fills memory.
    // (Headers already strips the ends of a value, so only inner padding and case can vary.)
    for (const headers of [
      new Headers({ authorization: `bearer ${key}` }),
      new Headers({ authorization: `Bearer${" ".repeat(4000)}${key}` }),
      new Headers({ authorization: `Bearer\t\t${key}` }),
    ]) {
      const { answer } = await settle(headers);
      expect(answer).toBeInstanceOf(Promise);
      expect((await answer).plan.tier).toBe("pro");
    }
    await store.close();
  });

  test("the local account is on SIPHON_LOCAL_TIER (default unlimited), whatever its stored row says", async () => {
    const path = join(home, "local-tier.db");
    const old = openSqliteStore(path);
    // A store from before unlimited existed: the local account's row says max.
    await ensureLocalAccount(old, "max", 0);
    const { key } = await issueKey(old.accounts, {
      accountId: LOCAL_ACCOUNT_ID,
      name: "own",
      kind: "live",
      now: 0,
    });
    await old.close();
    for (const [localTier, tier] of [
      [undefined, "unlimited"],
      ["pro", "pro"],
    ] as const) {
      const store = openSqliteStore(path);
      const config = loadConfig({}, { home, localTier });
      const ctx: AuthContext = { config, store, plans: loadPlans(config), now: Date.now };
      expect((await identifyPrincipal(new Headers(), ctx, true)).plan.tier).toBe(tier);
      const keyed = await identifyPrincipal(new Headers({ "x-api-key": key }), ctx, false);
      expect(keyed.plan.tier).toBe(tier);
      await store.close();
    }
  });

  test("keyless local use is remembered too, and a missing key is refused when one is required", async () => {
    const store = openSqliteStore(join(home, "local.db"));
    const config = loadConfig({}, { home });
    const ctx: AuthContext = { config, store, plans: loadPlans(config), now: Date.now };
    const none = new Headers();
    const local = await identifyPrincipal(none, ctx, true);
    expect(local.account.id).toBe("acct_local");
    expect(identifyPrincipal(none, ctx, true)).toBe(local);
    const refused = await Promise.resolve(identifyPrincipal(none, ctx, false)).catch((e) => e);
    expect((refused as SiphonError).type).toBe("unauthorized");
    await store.close();
  });
});
