import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SiphonError } from "../errors.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import { createAccountWithKey, issueKey, revokeKey } from "./keys.ts";

const home = mkdtempSync(join(tmpdir(), "siphon-keys-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error as SiphonError,
  );

describe("revokeKey", () => {
  test("revokes by the pasted key, padded or not, and by a listed prefix with its …", async () => {
    const store = openSqliteStore(join(home, "forms.db"));
    const a = await createAccountWithKey(store.accounts, { name: "a", tier: "free", kind: "test", now: 1 });
    expect((await revokeKey(store.accounts, ` ${a.key}\n`, 5)).id).toBe(a.info.id);
    const b = await issueKey(store.accounts, {
      accountId: a.info.accountId,
      name: "b",
      kind: "live",
      now: 2,
    });
    expect((await revokeKey(store.accounts, `${b.info.prefix}…`, 6)).id).toBe(b.info.id);
    expect((await store.accounts.listKeys()).map((k) => k.revokedAt)).toEqual([5, 6]);
    await store.close();
  });

  test("refusals say why, and never hold the key", async () => {
    const store = openSqliteStore(join(home, "refusals.db"));
    const a = await createAccountWithKey(store.accounts, { name: "a", tier: "free", kind: "live", now: 1 });
    await issueKey(store.accounts, { accountId: a.info.accountId, name: "b", kind: "live", now: 2 });

    const ambiguous = await refused(revokeKey(store.accounts, "key_", 5));
    expect(ambiguous.type).toBe("invalid_request");
    expect(ambiguous.message).toMatch(/matches 2 keys \(key_\w+, key_\w+\); none was revoked/);

    const unknownKey = `sph_live_${"Z".repeat(32)}`;
    const notHere = await refused(revokeKey(store.accounts, unknownKey, 5));
    expect(notHere.type).toBe("not_found");
    expect(`${notHere.message} ${notHere.hint}`).not.toContain(unknownKey);
    expect(notHere.message).toContain("sph_live_ZZZZ…");

    // More of a key than its listed prefix cannot be checked; the text is cut in the message too.
    const tooLong = await refused(revokeKey(store.accounts, a.key.slice(0, 30), 5));
    expect(tooLong.type).toBe("not_found");
    expect(`${tooLong.message} ${tooLong.hint}`).not.toContain(a.key.slice(0, 14));
    expect(tooLong.hint).toMatch(/first 13 characters/);

    expect((await refused(revokeKey(store.accounts, "  ", 5))).type).toBe("not_found");
    expect((await store.accounts.listKeys()).every((k) => k.revokedAt === null)).toBe(true);
    await store.close();
  });
});
