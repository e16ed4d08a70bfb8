import { SiphonError } from "../errors.ts";
import type { AccountStore, ApiKeyInfo } from "../store/types.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PATTERN = /^sph_(live|test)_[0-9A-Za-z]{32}$/;
const PREFIX_LENGTH = 13; // "sph_live_" plus 4 characters: enough to tell keys apart in a list.

/** Random base62 text; rejection sampling keeps every character equally likely. */
function base62(length: number): string {
  let out = "";
  while (out.length < length) {
    // Web Crypto's generator: node:crypto would cost every CLI run that names the local account its start-up.
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
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

/**
 * How a reference to a key may be shown: an id or a listed prefix as given,
 * anything longer that looks like a key cut to the listed prefix, so a
 * pasted key is never printed.
 */
function shown(ref: string): string {
  return ref.startsWith("sph_") && ref.length > PREFIX_LENGTH ? `${ref.slice(0, PREFIX_LENGTH)}…` : ref;
}

/**
 * Revokes one key named by the key itself (sph_live_… or sph_test_…, matched
 * by its hash), its id, or a unique prefix of either (as `siphon keys list`
 * shows them, a trailing … allowed). Throws not_found when nothing matches
 * and invalid_request when a prefix matches several keys; neither message
 * holds the key.
 */
export async function revokeKey(store: AccountStore, ref: string, now: number): Promise<ApiKeyInfo> {
  const wanted = ref.trim().replace(/(…|\.\.\.)$/, "");
  const matches = wanted ? await store.revokeKey(wanted, now) : [];
  const [key] = matches;
  if (key && matches.length === 1) return key;
  if (matches.length > 1) {
    const ids = matches.map((k) => k.id);
    throw new SiphonError(
      "invalid_request",
      `"${shown(wanted)}" matches ${matches.length} keys (${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}); none was revoked`,
      { hint: "Give the id, a longer prefix from `siphon keys list`, or the whole key." },
    );
  }
  const whole = KEY_PATTERN.test(wanted);
  throw new SiphonError(
    "not_found",
    whole ? `No key in this store is ${shown(wanted)}` : `No key matches "${shown(wanted)}"`,
    {
      hint: whole
        ? "It was created in another store (SIPHON_HOME), or mistyped; `siphon keys list` shows this store's keys."
        : wanted.startsWith("sph_") && wanted.length > PREFIX_LENGTH
          ? `Only the first ${PREFIX_LENGTH} characters of a key are kept besides its hash: give those, the id or the whole key.`
          : "Use the id, the prefix from `siphon keys list`, or the whole key.",
    },
  );
}
