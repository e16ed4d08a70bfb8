import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The PostgreSQL schema: the same tables as src/store/sqlite-schema.ts (see
 * the comments there), in PostgreSQL's types. Times are ms since epoch in
 * bigint columns read as numbers. Migrations: drizzle/pg, embedded in
 * src/store/pg-migrations.gen.ts by `bun run db:generate`.
 */

/** Raw bytes (bytea), as Uint8Array. */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/** ms since epoch, or any count past 2^31. */
const ms = (name: string) => bigint(name, { mode: "number" });

export const cacheEntries = pgTable(
  "cache_entries",
  {
    key: text("key").primaryKey(),
    url: text("url").notNull(),
    value: text("value").notNull(),
    body: bytes("body"),
    size: bigint("size", { mode: "number" }).notNull().default(0),
    createdAt: ms("created_at").notNull(),
    accessedAt: ms("accessed_at").notNull().default(0),
  },
  (table) => [
    index("cache_entries_created_at").on(table.createdAt),
    index("cache_entries_accessed_at").on(table.accessedAt, table.createdAt),
  ],
);

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  tier: text("tier").notNull(),
  extraUsageEnabled: boolean("extra_usage_enabled").notNull().default(false),
  extraBalanceMicros: bigint("extra_balance_micros", { mode: "number" }).notNull().default(0),
  createdAt: ms("created_at").notNull(),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull().unique(),
    kind: text("kind").notNull(),
    createdAt: ms("created_at").notNull(),
    lastUsedAt: ms("last_used_at"),
    revokedAt: ms("revoked_at"),
  },
  (table) => [index("api_keys_account").on(table.accountId)],
);

export const usageWeeks = pgTable(
  "usage_weeks",
  {
    accountId: text("account_id").notNull(),
    weekStart: ms("week_start").notNull(),
    credits: bigint("credits", { mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.weekStart] })],
);

/**
 * Each subject's sliding window: the times of the requests it admitted within
 * the window (older ones are dropped as it slides). One row per subject,
 * updated by one upsert, so the row lock makes check-and-count atomic across
 * every process sharing the database. `admitted` is whether the last attempt
 * was counted.
 */
export const burstWindows = pgTable("burst_windows", {
  subject: text("subject").primaryKey(),
  times: ms("times").array().notNull(),
  admitted: boolean("admitted").notNull(),
});

export const requestLog = pgTable(
  "request_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id").notNull(),
    keyId: text("key_id"),
    route: text("route").notNull(),
    status: integer("status").notNull(),
    durationMs: bigint("duration_ms", { mode: "number" }).notNull(),
    credits: bigint("credits", { mode: "number" }).notNull(),
    at: ms("at").notNull(),
    count: integer("count").notNull().default(1),
    /** LLM tokens (input and output) the row's requests used, summed. */
    tokens: bigint("tokens", { mode: "number" }).notNull().default(0),
  },
  (table) => [
    index("request_log_account_at").on(table.accountId, table.at),
    index("request_log_key_at").on(table.keyId, table.at),
  ],
);

export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    accountId: text("account_id").notNull(),
    /** The API key the job was started with (its work is logged under it); null without one. */
    keyId: text("key_id"),
    input: text("input").notNull(),
    webhook: text("webhook"),
    total: integer("total").notNull().default(0),
    completed: integer("completed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    creditsUsed: bigint("credits_used", { mode: "number" }).notNull().default(0),
    error: text("error"),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    finishedAt: ms("finished_at"),
    expiresAt: ms("expires_at"),
    result: text("result"),
  },
  (table) => [
    index("jobs_account_created").on(table.accountId, table.createdAt),
    index("jobs_status").on(table.status),
    index("jobs_expires_at").on(table.expiresAt),
  ],
);

export const jobItems = pgTable(
  "job_items",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    jobId: text("job_id").notNull(),
    url: text("url").notNull(),
    depth: integer("depth").notNull().default(0),
    state: text("state").notNull(),
    data: text("data"),
    error: text("error"),
    /**
     * The item's place among its job's finished items (1, 2, ...), given when it finishes: results
     * are read in this order, so a page found early that finishes late never shifts a window a
     * reader already read (reading by insertion order repeated and skipped pages).
     */
    seq: bigint("seq", { mode: "number" }),
  },
  (table) => [
    uniqueIndex("job_items_job_url").on(table.jobId, table.url),
    // The frontier (a job's pending items by depth, then id) read in index order: without id in
    // the index PostgreSQL sorted every pending item of the job for each page it took.
    index("job_items_frontier").on(table.jobId, table.state, table.depth, table.id),
    uniqueIndex("job_items_job_seq").on(table.jobId, table.seq),
  ],
);

/** As SQLite's, with the markdown as UTF-8 bytes: PostgreSQL text cannot hold NUL, and a page's can. */
export const pageSnapshots = pgTable(
  "page_snapshots",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id").notNull(),
    url: text("url").notNull(),
    tag: text("tag").notNull().default(""),
    markdown: bytes("markdown").notNull(),
    statusCode: integer("status_code").notNull(),
    scrapedAt: ms("scraped_at").notNull(),
  },
  (table) => [index("page_snapshots_page").on(table.accountId, table.url, table.tag, table.scrapedAt)],
);

/**
 * As SQLite's; a claim (claim_token, claimed_until) is taken by one UPDATE whose rows are
 * locked FOR UPDATE SKIP LOCKED, so workers claiming at once never share a watch. The baseline
 * is page content, kept as UTF-8 bytes (PostgreSQL text cannot hold NUL).
 */
export const watches = pgTable(
  "watches",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    url: text("url").notNull(),
    name: text("name"),
    status: text("status").notNull(),
    intervalMinutes: integer("interval_minutes").notNull(),
    options: text("options").notNull(),
    webhook: text("webhook"),
    lastFingerprint: text("last_fingerprint"),
    baseline: bytes("baseline"),
    lastCheckedAt: ms("last_checked_at"),
    lastChangedAt: ms("last_changed_at"),
    lastError: text("last_error"),
    changeCount: integer("change_count").notNull().default(0),
    checkCount: integer("check_count").notNull().default(0),
    nextCheckAt: ms("next_check_at").notNull(),
    revision: integer("revision").notNull().default(0),
    claimToken: text("claim_token"),
    claimedUntil: ms("claimed_until"),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (table) => [
    index("watches_account_created").on(table.accountId, table.createdAt),
    index("watches_next_check").on(table.nextCheckAt),
  ],
);

/** As SQLite's, with the diff (page content) as UTF-8 bytes. */
export const watchChecks = pgTable(
  "watch_checks",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique(),
    watchId: text("watch_id").notNull(),
    checkedAt: ms("checked_at").notNull(),
    trigger: text("trigger").notNull(),
    status: text("status").notNull(),
    fingerprint: text("fingerprint"),
    previousFingerprint: text("previous_fingerprint"),
    summary: text("summary").notNull(),
    addedText: text("added_text").notNull(),
    removedText: text("removed_text").notNull(),
    diff: bytes("diff"),
    statusCode: integer("status_code"),
    error: text("error"),
  },
  (table) => [index("watch_checks_watch").on(table.watchId, table.seq)],
);
