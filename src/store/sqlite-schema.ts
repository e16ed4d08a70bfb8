import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Cached fetch results, keyed by URL plus every option that changes the output. */
export const cacheEntries = sqliteTable(
  "cache_entries",
  {
    key: text("key").primaryKey(),
    url: text("url").notNull(),
    /** The Fetch result as JSON. */
    value: text("value").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("cache_entries_created_at").on(table.createdAt)],
);

/** An account: the unit that owns keys, a plan tier, a weekly quota and optional extra usage. */
export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  tier: text("tier").notNull(),
  /** Extra usage: when enabled, requests past the weekly quota keep full features and are charged. */
  extraUsageEnabled: integer("extra_usage_enabled", { mode: "boolean" }).notNull().default(false),
  /** Remaining extra-usage balance, in micro-units of the price currency (integers stay exact). */
  extraBalanceMicros: integer("extra_balance_micros").notNull().default(0),
  createdAt: integer("created_at").notNull(),
});

/** API keys: only a SHA-256 hash of the key is stored; the key itself is shown once. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    /** The first characters of the key, for people to recognise it in lists. */
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull().unique(),
    kind: text("kind").notNull(),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
    revokedAt: integer("revoked_at"),
  },
  (table) => [index("api_keys_account").on(table.accountId)],
);

/** Credits used per account per week (week = Monday 00:00 UTC, as ms since epoch). */
export const usageWeeks = sqliteTable(
  "usage_weeks",
  {
    accountId: text("account_id").notNull(),
    weekStart: integer("week_start").notNull(),
    credits: integer("credits").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.weekStart] })],
);

/** One row per admitted metered request: /v1/stats reads it, and so does the burst window after a restart. */
export const requestLog = sqliteTable(
  "request_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    keyId: text("key_id"),
    route: text("route").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    credits: integer("credits").notNull(),
    at: integer("at").notNull(),
  },
  (table) => [
    index("request_log_account_at").on(table.accountId, table.at),
    index("request_log_key_at").on(table.keyId, table.at),
  ],
);
