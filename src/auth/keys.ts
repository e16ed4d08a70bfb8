import { randomBytes } from "node:crypto";
import { SiphonError } from "../errors.ts";
import type { AccountStore, ApiKeyInfo } from "../store/types.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PATTERN = /^sph_(live|test)_[0-9A-Za-z]{32}$/;
const PREFIX_LENGTH = 13; // "sph_live_" plus 4 characters: enough to tell keys apart in a list.

/** Random base62 text; rejection sampling keeps every character equally likely. */
function base62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** SHA-256 of a key, hex: the only form a key is stored in. */
export function hashKey(key: string): string {
  return Bun.SHA256.hash(key, "hex");
}

export interface NewKey {
  /** The key itself: shown once, never stored. */
  key: string;
  info: ApiKeyInfo;
}

/** Creates a key for an account and stores its hash. */
export async function issueKey(
  store: AccountStore,
  input: { accountId: string; name: string; kind: "live" | "test"; now: number },
): Promise<NewKey> {
  const key = `sph_${input.kind}_${base62(32)}`;
  const info: ApiKeyInfo = {
    id: `key_${base62(12)}`,
    accountId: input.accountId,
    name: input.name,
    prefix: key.slice(0, PREFIX_LENGTH),
    kind: input.kind,
    createdAt: input.now,
    lastUsedAt: null,
    revokedAt: null,
  };
  await store.createKey(info, hashKey(key));
  return { key, info };
}

/** Creates an account of `tier` and its first key. */
export async function createAccountWithKey(
  store: AccountStore,
  input: { name: string; tier: string; kind: "live" | "test"; now: number },
): Promise<NewKey> {
  const accountId = `acct_${base62(12)}`;
  await store.createAccount({
    id: accountId,
    name: input.name,
    tier: input.tier,
    extraUsageEnabled: false,
    extraBalanceMicros: 0,
    createdAt: input.now,
  });
  return issueKey(store, { accountId, name: input.name, kind: input.kind, now: input.now });
}

/** Revokes a key by id or prefix; throws not_found when none (or more than one) matches. */
export async function revokeKey(store: AccountStore, idOrPrefix: string, now: number): Promise<ApiKeyInfo> {
  const key = await store.revokeKey(idOrPrefix, now);
  if (!key) {
    throw new SiphonError("not_found", `No single key matches "${idOrPrefix}"`, {
      hint: "Use the id or a longer prefix from `siphon keys list`.",
    });
  }
  return key;
}
