import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Cached fetch attempts (what the target sent, or the rendered DOM), keyed by URL plus every
 * option that changes the attempt; any output format is rendered from them. Least recently
 * used entries are evicted past the size cap, and entries past the longest maxAge expire.
 */
export const cacheEntries = sqliteTable(
  "cache_entries",
  {
    key: text("key").primaryKey(),
    url: text("url").notNull(),
    /** The attempt's description (status, headers, method...) as JSON. */
    value: text("value").notNull(),
    /** The page's bytes. */
    body: blob("body", { mode: "buffer" }),
    /** Bytes the entry takes (value and body), for the size cap. */
    size: integer("size").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    /** When the entry was last read or written (to the minute), for LRU eviction. */
    accessedAt: integer("accessed_at").notNull().default(0),
  },
  (table) => [
    index("cache_entries_created_at").on(table.createdAt),
    index("cache_entries_accessed_at").on(table.accessedAt),
  ],
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

/** Admitted metered requests, one row per key, route, status and second: /v1/stats reads it, and so does the burst window after a restart. */
export const requestLog = sqliteTable(
  "request_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    keyId: text("key_id"),
    route: text("route").notNull(),
    status: integer("status").notNull(),
    /** Summed over the row's requests. */
    durationMs: integer("duration_ms").notNull(),
    credits: integer("credits").notNull(),
    /** Time of the row's last request. */
    at: integer("at").notNull(),
    /** Requests the row stands for: same key, route and status within one second. */
    count: integer("count").notNull().default(1),
    /** LLM tokens (input and output) the row's requests used, summed. */
    tokens: integer("tokens").notNull().default(0),
  },
  (table) => [
    index("request_log_account_at").on(table.accountId, table.at),
    index("request_log_key_at").on(table.keyId, table.at),
  ],
);

/** Async jobs (crawl, batch, agent): their input, state, counters and, for a job of one unit, its result. */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    accountId: text("account_id").notNull(),
    /** The API key the job was started with (its work is logged under it); null without one. */
    keyId: text("key_id"),
    /** The validated request, as JSON. */
    input: text("input").notNull(),
    /** Webhook config as JSON, or null. */
    webhook: text("webhook"),
    total: integer("total").notNull().default(0),
    completed: integer("completed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    creditsUsed: integer("credits_used").notNull().default(0),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    finishedAt: integer("finished_at"),
    expiresAt: integer("expires_at"),
    /** The result of a job that produces one (agent), as JSON; null for page jobs, whose results are items. */
    result: text("result"),
  },
  (table) => [
    index("jobs_account_created").on(table.accountId, table.createdAt),
    index("jobs_status").on(table.status),
  ],
);

/**
 * A job's URLs: the crawl frontier and the results in one table. A row is
 * pending until its page is fetched, then done or failed with its data; the
 * unique (job, url) pair deduplicates the frontier, and results persist as
 * they happen, so a restarted job re-fetches only what was still pending.
 */
export const jobItems = sqliteTable(
  "job_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: text("job_id").notNull(),
    url: text("url").notNull(),
    depth: integer("depth").notNull().default(0),
    state: text("state").notNull(),
    /** The page result as JSON once done. */
    data: text("data"),
    error: text("error"),
    /**
     * The item's place among its job's finished items (1, 2, ...), given when it finishes: results
     * are read in this order, so a page found early that finishes late never shifts a window a
     * reader already read (reading by insertion order repeated and skipped pages).
     */
    seq: integer("seq"),
  },
  (table) => [
    uniqueIndex("job_items_job_url").on(table.jobId, table.url),
    index("job_items_job_state").on(table.jobId, table.state, table.depth),
    uniqueIndex("job_items_job_seq").on(table.jobId, table.seq),
  ],
);

/**
 * Earlier scrapes of pages (their markdown and status) per account, URL and tag, newest kept:
 * change tracking compares a scrape with the one before, and a watch reads the history.
 */
export const pageSnapshots = sqliteTable(
  "page_snapshots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    url: text("url").notNull(),
    /** The caller's name for a separate history of one URL; "" for none. */
    tag: text("tag").notNull().default(""),
    markdown: text("markdown").notNull(),
    statusCode: integer("status_code").notNull(),
    scrapedAt: integer("scraped_at").notNull(),
  },
  (table) => [index("page_snapshots_page").on(table.accountId, table.url, table.tag, table.scrapedAt)],
);

/**
 * Watches: a page checked for changes on a schedule, with its fetch options and noise rules,
 * the baseline the next check diffs against, and the claim (token and lease) that lets exactly
 * one process run a check at a time.
 */
export const watches = sqliteTable(
  "watches",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    url: text("url").notNull(),
    name: text("name"),
    status: text("status").notNull(),
    intervalMinutes: integer("interval_minutes").notNull(),
    /** Fetch options and noise rules, as JSON. */
    options: text("options").notNull(),
    /** Webhook config as JSON, or null. */
    webhook: text("webhook"),
    lastFingerprint: text("last_fingerprint"),
    /** The compared content of the last successful check. */
    baseline: text("baseline"),
    lastCheckedAt: integer("last_checked_at"),
    lastChangedAt: integer("last_changed_at"),
    lastError: text("last_error"),
    changeCount: integer("change_count").notNull().default(0),
    checkCount: integer("check_count").notNull().default(0),
    nextCheckAt: integer("next_check_at").notNull(),
    /** Bumped when what a check reads changes, so a check begun before is not recorded. */
    revision: integer("revision").notNull().default(0),
    claimToken: text("claim_token"),
    claimedUntil: integer("claimed_until"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [
    index("watches_account_created").on(table.accountId, table.createdAt),
    index("watches_next_check").on(table.nextCheckAt),
  ],
);

/** The checks of a watch, newest kept (see WATCH_HISTORY_KEPT); a diff only for changes. */
export const watchChecks = sqliteTable(
  "watch_checks",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    watchId: text("watch_id").notNull(),
    checkedAt: integer("checked_at").notNull(),
    trigger: text("trigger").notNull(),
    status: text("status").notNull(),
    fingerprint: text("fingerprint"),
    previousFingerprint: text("previous_fingerprint"),
    summary: text("summary").notNull(),
    /** Lines added and removed, as JSON arrays. */
    addedText: text("added_text").notNull(),
    removedText: text("removed_text").notNull(),
    diff: text("diff"),
    statusCode: integer("status_code"),
    error: text("error"),
  },
  (table) => [index("watch_checks_watch").on(table.watchId, table.seq)],
);
