import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashKey } from "../auth/keys.ts";
import { openSqliteStore } from "./sqlite.ts";
import type { ApiKeyInfo, Store } from "./types.ts";

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function freshStore(): Store {
  const home = mkdtempSync(join(tmpdir(), "siphon-accounts-"));
  homes.push(home);
  return openSqliteStore(join(home, "siphon.db"));
}

/** Two keys of one account, written as `issueKey` writes them, with known text. */
async function twoKeys(store: Store) {
  await store.accounts.createAccount({
    id: "acct_t",
    name: "t",
    tier: "pro",
    extraUsageEnabled: false,
    extraBalanceMicros: 0,
    createdAt: 0,
  });
  const make = async (key: string, id: string, now: number) => {
    const info: ApiKeyInfo = {
      id,
      accountId: "acct_t",
      name: id,
      prefix: key.slice(0, 13),
      kind: "live",
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    };
    await store.accounts.createKey(info, hashKey(key));
    return { key, info };
  };
  return {
    first: await make(`sph_live_Ab3d${"q".repeat(28)}`, "key_Xy7zQ1w2e3r4", 1),
    second: await make(`sph_live_Cd5f${"q".repeat(28)}`, "key_Pz8aR5t6y7u8", 2),
  };
}

describe("AccountStore.revokeKey", () => {
  test("finds a key by the key itself (its hash), its id, or a unique prefix of either", async () => {
    const store = freshStore();
    const { first } = await twoKeys(store);
    const refs = [
      first.key,
      first.info.id,
      first.info.id.slice(0, 6),
      first.info.prefix,
      first.info.prefix.slice(0, 11),
    ];
    for (const ref of refs) {
      const matches = await store.accounts.revokeKey(ref, 100);
      expect(matches.map((k) => k.id)).toEqual([first.info.id]);
      expect(matches[0]?.revokedAt).toBe(100);
    }
    const listed = await store.accounts.listKeys();
    expect(listed.filter((k) => k.revokedAt !== null).map((k) => k.id)).toEqual([first.info.id]);
    await store.close();
  });

  test("an ambiguous prefix revokes nothing and answers every key it matched", async () => {
    const store = freshStore();
    const { first, second } = await twoKeys(store);
    for (const ref of ["key_", "sph_live_", "sph_"]) {
      const matches = await store.accounts.revokeKey(ref, 100);
      expect(matches.map((k) => k.id).sort()).toEqual([first.info.id, second.info.id].sort());
    }
    expect((await store.accounts.listKeys()).every((k) => k.revokedAt === null)).toBe(true);
    await store.close();
  });

  test("prefixes match exactly: case counts, and a key's text past its listed prefix is never guessed at", async () => {
    const store = freshStore();
    const { first } = await twoKeys(store);
    const flipped = first.info.prefix.slice(0, 9) + swapCase(first.info.prefix.slice(9));
    const others = [
      flipped,
      // The listed prefix and more of some other key: only the hash could tell, so nothing matches.
      `${first.info.prefix}zzzz`,
      // A whole key that is not in this store shares no hash, and its prefix is not looked at.
      `${first.info.prefix}${"x".repeat(28)}`,
      swapCase(first.info.id),
    ];
    for (const ref of others) expect(await store.accounts.revokeKey(ref, 100)).toEqual([]);
    expect((await store.accounts.listKeys()).every((k) => k.revokedAt === null)).toBe(true);
    await store.close();
  });
});

function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
}
