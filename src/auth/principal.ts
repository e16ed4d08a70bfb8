import type { Config } from "../config.ts";
import { SiphonError } from "../errors.ts";
import type { Account, ApiKeyInfo, Awaitable, Store } from "../store/types.ts";
import { hashKey, KEY_PATTERN } from "./keys.ts";
import type { Plan } from "./plans.ts";

/** Who is calling: an account with its plan, through a key or as the local account. */
export interface Principal {
  account: Account;
  key: ApiKeyInfo | null;
  plan: Plan;
  /** Whose burst window the requests count in: the key's; keyless local requests share one per account. */
  burstSubject: string;
}

export interface AuthContext {
  config: Config;
  store: Store;
  plans: Map<string, Plan>;
  now: () => number;
}

export const LOCAL_ACCOUNT_ID = "acct_local";
// Writing last-used on every request would make every read a write; a minute is precise enough.
const TOUCH_EVERY_MS = 60_000;

/** The key a request carries (Bearer or X-API-Key), "" when the header is there but empty or malformed, null when absent. */
export function presentedKey(headers: Headers): string | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? "";
  }
  const apiKey = headers.get("x-api-key");
  return apiKey === null ? null : apiKey.trim();
}

/**
 * The tier an account is metered on: the local account's is the configured
 * SIPHON_LOCAL_TIER (default unlimited) whatever its stored row says, so a
 * change of setting applies to keyless requests, keys added to it and its
 * jobs alike; any other account's is its own.
 */
export function accountTier(account: Account, config: Config): string {
  return account.id === LOCAL_ACCOUNT_ID ? config.localTier : account.tier;
}

/** The plan of `tier`; an unknown tier is metered as free. */
export function planOf(plans: Map<string, Plan>, tier: string): Plan {
  const plan = plans.get(tier) ?? plans.get("free");
  if (!plan) throw new SiphonError("internal_error", `No plan for tier ${tier}`);
  return plan;
}

/** The built-in account of keyless local use (daemon and CLI jobs); created on first use. */
export async function ensureLocalAccount(store: Store, tier: string, now: number): Promise<Account> {
  let account = await store.accounts.getAccount(LOCAL_ACCOUNT_ID);
  if (!account) {
    account = {
      id: LOCAL_ACCOUNT_ID,
      name: "local",
      tier,
      extraUsageEnabled: false,
      extraBalanceMicros: 0,
      createdAt: now,
    };
    try {
      await store.accounts.createAccount(account);
    } catch {
      // Another request or process created it at the same moment.
    }
  }
  return account;
}

async function localPrincipal(ctx: AuthContext): Promise<Principal> {
  const account = await ensureLocalAccount(ctx.store, ctx.config.localTier, ctx.now());
  return {
    account: { ...account, tier: ctx.config.localTier },
    key: null,
    plan: planOf(ctx.plans, ctx.config.localTier),
    burstSubject: `account:${account.id}`,
  };
}

const HINT =
  "Send Authorization: Bearer sph_live_… or X-API-Key: sph_live_… (create one with `siphon keys create`).";

/**
 * Identifies the caller. Without a key: the local account when `keyOptional`,
 * else 401 unauthorized. A malformed key is 401 unauthorized; an unknown or
 * revoked key, a deleted account, or a test key in production is 401
 * invalid_token. Keys are compared by SHA-256 hash, never stored or logged.
 */
export async function authenticate(
  headers: Headers,
  ctx: AuthContext,
  keyOptional: boolean,
): Promise<Principal> {
  const key = presentedKey(headers);
  if (key === null) {
    if (keyOptional) return localPrincipal(ctx);
    throw new SiphonError("unauthorized", "This endpoint needs an API key", { hint: HINT });
  }
  if (!KEY_PATTERN.test(key)) {
    throw new SiphonError(
      "unauthorized",
      "The API key is not well-formed (expected sph_live_ or sph_test_ and 32 characters)",
      {
        hint: HINT,
      },
    );
  }
  if (key.startsWith("sph_test_") && ctx.config.environment === "production") {
    throw new SiphonError("invalid_token", "Test keys (sph_test_) are refused by a production server", {
      hint: "Use a live key.",
    });
  }
  // Keys are found by their SHA-256 hash: whatever the lookup's timing reveals is about the hash, and a
  // hash prefix does not help anyone guess a key, so no byte-by-byte comparison of secrets happens here.
  const hash = hashKey(key);
  const info = await ctx.store.accounts.findKeyByHash(hash);
  if (!info) throw new SiphonError("invalid_token", "The API key is unknown");
  if (info.revokedAt !== null)
    throw new SiphonError("invalid_token", "The API key was revoked", { hint: "Create a new key." });
  const account = await ctx.store.accounts.getAccount(info.accountId);
  if (!account) throw new SiphonError("invalid_token", "The key's account no longer exists");
  const now = ctx.now();
  if (info.lastUsedAt === null || now - info.lastUsedAt > TOUCH_EVERY_MS)
    await ctx.store.accounts.touchKey(info.id, now);
  return {
    account,
    key: info,
    plan: planOf(ctx.plans, accountTier(account, ctx.config)),
    burstSubject: `key:${info.id}`,
  };
}

interface Remembered {
  principal: Principal;
  generation: number;
}

/**
 * Principals already authenticated, per store, by the header value that
 * presented the key in its canonical form (keyless local use has one
 * entry). The values stay in this process's memory, like the request that
 * carried them; they are never stored or logged. Only a value already authenticated is here, and a map
 * lookup compares whole values after their hashes, so its timing tells a
 * guesser nothing the 401 does not.
 */
interface Memory {
  authorization: Map<string, Remembered>;
  apiKey: Map<string, Remembered>;
  keyless: Remembered | null;
}

const memories = new WeakMap<Store, Memory>();
const REMEMBERED_MAX = 10_000;

/**
 * Whether a header value that authenticated is the one way of writing its
 * key (`Bearer <key>`, or the bare key in X-API-Key): only those are
 * remembered, so padded or re-cased variants of a valid key, up to the
 * header size limit each, cannot fill memory.
 */
function canonical(value: string, authorization: boolean): boolean {
  if (!authorization) return KEY_PATTERN.test(value);
  return value.startsWith("Bearer ") && KEY_PATTERN.test(value.slice(7));
}

/**
 * authenticate, remembering the principal of a key (or of keyless local
 * use) until the store's accounts generation moves: any write to accounts or
 * keys, here or by another process (`siphon keys revoke` is seen by the next
 * request a millisecond later), and the once-a-minute last-used touch. A
 * remembered key costs a header read and a map lookup instead of parsing,
 * hashing, two store reads and the checks; failures are never remembered.
 */
export function identifyPrincipal(
  headers: Headers,
  ctx: AuthContext,
  keyOptional: boolean,
): Awaitable<Principal> {
  // The same precedence as presentedKey: Authorization, else X-API-Key.
  const authorization = headers.get("authorization");
  const presented = authorization ?? headers.get("x-api-key");
  if (presented === null && !keyOptional) return authenticate(headers, ctx, keyOptional);
  let memory = memories.get(ctx.store);
  if (!memory) {
    memory = { authorization: new Map(), apiKey: new Map(), keyless: null };
    memories.set(ctx.store, memory);
  }
  const byHeader = authorization === null ? memory.apiKey : memory.authorization;
  const hit = presented === null ? memory.keyless : byHeader.get(presented);
  if (hit && hit.generation === ctx.store.accounts.generation()) {
    // A key whose last-used time is due for its touch goes the long way, which touches it.
    const touched = hit.principal.key?.lastUsedAt;
    if (touched === undefined || (touched !== null && ctx.now() - touched <= TOUCH_EVERY_MS))
      return hit.principal;
  }
  const remember = memory;
  return authenticate(headers, ctx, keyOptional).then((principal) => {
    // Taken after authenticating: a touch it made has moved the generation already.
    const entry = { principal, generation: ctx.store.accounts.generation() };
    if (presented === null) remember.keyless = entry;
    else if (canonical(presented, authorization !== null)) {
      if (byHeader.size >= REMEMBERED_MAX) byHeader.clear();
      byHeader.set(presented, entry);
    }
    return principal;
  });
}
