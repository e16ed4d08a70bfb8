import { asc, eq, sql } from "drizzle-orm";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import { hashKey } from "../auth/keys.ts";
import type { PgConnection } from "./pg-connection.ts";
import { accounts, apiKeys } from "./pg-schema.ts";
import type { Account, AccountStore, ApiKeyInfo } from "./types.ts";

type KeyRow = typeof apiKeys.$inferSelect;

/** The channel the schema's triggers notify when accounts or keys change (drizzle/pg/0001). */
export const ACCOUNTS_CHANNEL = "siphon_accounts";

function keyInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    prefix: row.prefix,
    kind: row.kind === "test" ? "test" : "live",
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/**
 * Accounts and keys in PostgreSQL. No reads are memoised here (other
 * processes write the same rows); callers keep what they derive until
 * `generation()` moves, which it does on this process's writes at once and on
 * any other's when the trigger's notification arrives (LISTEN, typically
 * within a millisecond or two), and again whenever the subscription is
 * re-made after a lost connection.
 */
export async function pgAccounts(pg: PgConnection): Promise<AccountStore> {
  let generation = 0;
  const moved = () => {
    generation++;
  };
  await pg.listen(ACCOUNTS_CHANNEL, moved);
  const keyByHash = async (db: BunSQLDatabase, hash: string) => {
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.hash, hash));
    return row ?? null;
  };
  return {
    generation: () => generation,
    createAccount: (account: Account) =>
      pg.run(async (db) => {
        await db.insert(accounts).values(account);
        moved();
      }),
    getAccount: (id) =>
      pg.run(async (db) => {
        const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
        return row ?? null;
      }),
    chargeExtra: (accountId, micros) =>
      pg.run(async (db) => {
        // One statement: the balance check and the update cannot interleave with another request's.
        const [row] = await db
          .update(accounts)
          .set({ extraBalanceMicros: sql`${accounts.extraBalanceMicros} + ${micros}` })
          .where(sql`${accounts.id} = ${accountId} AND ${accounts.extraBalanceMicros} + ${micros} >= 0`)
          .returning({ balance: accounts.extraBalanceMicros });
        moved();
        return row ? row.balance : null;
      }),
    setExtraUsage: (accountId, enabled, balanceMicros) =>
      pg.run(async (db) => {
        await db
          .update(accounts)
          .set({ extraUsageEnabled: enabled, extraBalanceMicros: balanceMicros })
          .where(eq(accounts.id, accountId));
        moved();
      }),
    createKey: (key, hash) =>
      pg.run(async (db) => {
        await db.insert(apiKeys).values({ ...key, hash });
        moved();
      }),
    findKeyByHash: (hash) =>
      pg.run(async (db) => {
        const row = await keyByHash(db, hash);
        return row ? keyInfo(row) : null;
      }),
    listKeys: () =>
      pg.run(async (db) => {
        const rows = await db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
        return rows.map(keyInfo);
      }),
    revokeKey: (ref, at) =>
      pg.run(async (db) => {
        if (!ref) return [];
        // A whole key is known only by its hash; it is never compared or kept as text.
        const byHash = await keyByHash(db, hashKey(ref));
        let matches: KeyRow[];
        if (byHash) matches = [byHash];
        else {
          // Few keys, and a prefix match must be exact (LIKE treats "_" as a wildcard).
          const rows = await db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
          matches = rows.filter((row) => row.id === ref);
          if (!matches.length)
            matches = rows.filter(
              (row) =>
                row.id.startsWith(ref) || (ref.length <= row.prefix.length && row.prefix.startsWith(ref)),
            );
        }
        const row = matches.length === 1 ? matches[0] : undefined;
        if (!row) return matches.map(keyInfo);
        // Only a key not yet revoked is revoked: two revocations at once keep the first time.
        const [revoked] = await db
          .update(apiKeys)
          .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${at})` })
          .where(eq(apiKeys.id, row.id))
          .returning();
        moved();
        return [keyInfo(revoked ?? row)];
      }),
    touchKey: (id, at) =>
      pg.run(async (db) => {
        await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
        moved();
      }),
  };
}
