/** A cached value, its bytes, and the time it was written (ms since epoch). */
export interface CacheEntry<T = unknown> {
  value: T;
  body: Uint8Array | null;
  createdAt: number;
}

/**
 * Key-value cache of fetch attempts, bounded in size (least recently used entries evicted)
 * and age. Freshness within that age is the caller's decision (maxAge), not the store's.
 */
export interface CacheStore {
  /** The entry under `key`, unless missing or past the store's longest age at `now`. */
  get<T>(key: string, now: number): Promise<CacheEntry<T> | null>;
  set<T>(key: string, url: string, entry: { value: T; body?: Uint8Array; createdAt: number }): Promise<void>;
}

/** An account: owns keys, has a plan tier and optional extra usage. */
export interface Account {
  id: string;
  name: string;
  tier: string;
  extraUsageEnabled: boolean;
  /** Remaining extra-usage balance in micro-units (1e-6) of the price currency. */
  extraBalanceMicros: number;
  createdAt: number;
}

/** An API key as listed: never the key itself, only its prefix. */
export interface ApiKeyInfo {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  kind: "live" | "test";
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/**
 * A value now or later. The per-request metering reads (burst slot, weekly
 * credits, request log) may answer synchronously when a store keeps them in
 * memory (SQLite does): at ten thousand requests a second, a promise and a
 * microtask per read are a measurable share of a cached request.
 */
export type Awaitable<T> = T | Promise<T>;

/** Accounts and keys. Stores move data; the auth module decides what it means. */
export interface AccountStore {
  /**
   * A number that changes whenever accounts or keys may have changed, in this
   * process or another, so callers can keep what they derived from them
   * (the authenticated principal of a key) until it moves.
   */
  generation(): number;
  createAccount(account: Account): Promise<void>;
  getAccount(id: string): Promise<Account | null>;
  /** Adds to (or, negative, takes from) the extra-usage balance; null when the account has too little. */
  chargeExtra(accountId: string, micros: number): Promise<number | null>;
  setExtraUsage(accountId: string, enabled: boolean, balanceMicros: number): Promise<void>;
  createKey(key: ApiKeyInfo, hash: string): Promise<void>;
  /** The key with this SHA-256 hash, revoked or not. */
  findKeyByHash(hash: string): Promise<ApiKeyInfo | null>;
  listKeys(): Promise<ApiKeyInfo[]>;
  /**
   * Revokes the one key `ref` names: the key itself (found by its SHA-256
   * hash), its id, or a prefix of its id or of its listed prefix. Answers
   * every key `ref` matched; only when exactly one did is it revoked (and
   * answered with its revocation time). Revoking a revoked key changes nothing.
   */
  revokeKey(ref: string, at: number): Promise<ApiKeyInfo[]>;
  touchKey(id: string, at: number): Promise<void>;
}

/** One metered request, for statistics. */
export interface RequestLogEntry {
  accountId: string;
  keyId: string | null;
  route: string;
  status: number;
  durationMs: number;
  credits: number;
  /** LLM tokens (input and output) the request used; 0 when it used none. */
  tokens?: number;
  at: number;
  /**
   * Requests the entry counts: 1 (the default) for a request; 0 for work a job did after the
   * request that started it (its pages' credits and tokens), which no rate window or request
   * statistic counts.
   */
  count?: number;
}

/** What an account (or one of its keys) used in one quota week, from the request log. */
export interface UsagePeriod {
  /** The week's start (Monday 00:00 UTC), ms since epoch. */
  start: number;
  /** The key the requests came with (null: keyless), when asked by key; else undefined. */
  keyId?: string | null;
  credits: number;
  tokens: number;
}

export interface BurstVerdict {
  allowed: boolean;
  /** Requests counted in the window after this one (when allowed) or now (when refused). */
  used: number;
  /** When the oldest counted request leaves the window (ms since epoch); now when the window is empty. */
  oldestExpiresAt: number;
}

/**
 * Rate-limit windows, weekly credits and the request log. A burst subject is
 * `key:<keyId>`, or `account:<accountId>` for keyless requests; every
 * admitted request must be logged (logRequest) under the same key or account.
 */
export interface UsageStore {
  /**
   * Counts a request in `subject`'s sliding window if fewer than `limit`
   * requests fell in the last `windowMs`; atomic, so concurrent callers never
   * overshoot the limit.
   */
  takeBurstSlot(subject: string, now: number, windowMs: number, limit: number): Awaitable<BurstVerdict>;
  /**
   * The window as it stands, without counting anything; right also for a
   * subject that never takes slots (an unlimited plan's), whose requests are
   * only logged.
   */
  peekBurst(
    subject: string,
    now: number,
    windowMs: number,
  ): Promise<{ used: number; oldestExpiresAt: number }>;
  addCredits(accountId: string, weekStart: number, credits: number): Promise<number>;
  weeklyCredits(accountId: string, weekStart: number): Awaitable<number>;
  logRequest(entry: RequestLogEntry): Awaitable<void>;
  stats(accountId: string): Promise<{ totalRequests: number; successRate: number; avgResponseTime: number }>;
  /**
   * Requests per UTC day from `since` on, from the same request log as stats (the dashboard's
   * chart), oldest first; days without requests are left out.
   */
  daily(accountId: string, since: number): Promise<DayUsage[]>;
  /**
   * Credits and LLM tokens per quota week (Monday 00:00 UTC) from `since` on, from the request
   * log, oldest first, and with `byKey` per key within each week; weeks without requests are left out.
   */
  periods(accountId: string, since: number, byKey: boolean): Promise<UsagePeriod[]>;
}

/** An account's requests on one UTC day. */
export interface DayUsage {
  /** The day's start, 00:00 UTC (ms since epoch). */
  day: number;
  requests: number;
  /** Answered below 400. */
  succeeded: number;
}

export type JobType = "crawl" | "batch" | "agent" | "extract" | "llmstxt";
export type JobStatus = "queued" | "processing" | "completed" | "failed" | "cancelled";
export const TERMINAL_STATUSES: readonly JobStatus[] = ["completed", "failed", "cancelled"];

/**
 * A job as stored; `input` and `webhook` are the caller's validated JSON. Page jobs (crawl,
 * batch, extract) keep their results as items; a job of one unit of work (agent) keeps it in `result`.
 */
export interface JobRecord {
  id: string;
  type: JobType;
  status: JobStatus;
  accountId: string;
  /** The API key the job was started with (the request log counts its pages under it); null without one. */
  keyId: string | null;
  input: unknown;
  webhook: unknown;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  expiresAt: number | null;
  /** The result of a job of one unit of work, once done; null otherwise. */
  result: unknown;
}

/** A job about to be created: counters start at 0, `total` at the number of its items unless given. */
export type NewJob = Omit<
  JobRecord,
  "total" | "completed" | "failed" | "creditsUsed" | "result" | "keyId"
> & {
  keyId?: string | null;
  total?: number;
};

/** One URL of a job: pending in the frontier, or done/failed with its result. */
export interface JobItem {
  url: string;
  depth: number;
  state: "pending" | "done" | "failed";
  data: unknown;
  error: string | null;
}

/** Jobs and their items. State changes are guarded so terminal states never change. */
export interface JobStore {
  /** Creates a job with its first items (deduplicated); `total` is the job's own, plus the items added. */
  create(job: NewJob, items: { url: string; depth: number }[]): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  list(filter: {
    accountId: string;
    type?: JobType;
    status?: JobStatus;
    limit: number;
  }): Promise<JobRecord[]>;
  /**
   * Moves a job from one of `from` to `to`; false (and nothing changes) when it was not in `from`.
   * `patch.input` replaces the stored input in the same step (a job that ends erases its secrets);
   * `patch.result` sets the result (a job whose result is made of its pages, as it ends).
   */
  transition(
    id: string,
    from: JobStatus[],
    to: JobStatus,
    patch?: { error?: string; finishedAt?: number; expiresAt?: number; input?: unknown; result?: unknown },
    at?: number,
  ): Promise<boolean>;
  /**
   * Keeps the result of a processing job of one unit of work, adds its credits and counts the
   * unit completed, in one step; false (and nothing changes) when the job is not processing.
   */
  setResult(id: string, result: unknown, credits: number, at?: number): Promise<boolean>;
  /** Adds frontier items not seen before, up to `cap` items in the job; returns how many were added. */
  addItems(jobId: string, items: { url: string; depth: number }[], cap: number): Promise<number>;
  /** Pending items, shallowest first, oldest first. */
  pending(jobId: string, limit: number): Promise<JobItem[]>;
  /**
   * Records a page's outcome and bumps the job's counters in one step. True when this call counted
   * the page (it was pending); false when it was finished before, by this or another process (a
   * retry after a crash, a job delivered twice): it counts once, and only its first outcome is kept.
   */
  finishItem(
    jobId: string,
    url: string,
    outcome: { state: "done" | "failed"; data?: unknown; error?: string; credits: number },
  ): Promise<boolean>;
  /**
   * Finished items (done and failed) in the order they finished, after the first `skip`: each
   * item takes the next place among its job's finished ones when it finishes (1, 2, ..., no
   * gaps, on every backend and across workers), and a place is taken only once the item is
   * readable, so reading on from `skip` while the job runs never repeats or skips an item.
   */
  results(jobId: string, skip: number, limit: number): Promise<JobItem[]>;
  /** Jobs a restarted worker must pick up again. */
  unfinished(): Promise<JobRecord[]>;
  /** Deletes jobs (and their items) that expired before `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
}

/** A page as one scrape saw it, kept so a later scrape (change tracking, a watch) can compare. */
export interface PageSnapshot {
  /** Whose scrape it was: snapshots are never shared between accounts. */
  accountId: string;
  /** The URL as requested, the key later scrapes find it by. */
  url: string;
  /** The caller's name for a separate history of the same URL ("" for none). */
  tag: string;
  /** The page's content as markdown. */
  markdown: string;
  /** The HTTP status the page answered with. */
  statusCode: number;
  /** When the page was scraped (ms since epoch). */
  scrapedAt: number;
}

/** Earlier scrapes of pages, per account, URL and tag. Stores move data; src/changes compares it. */
export interface SnapshotStore {
  /** The newest snapshot of (account, url, tag), or null when the page was never recorded. */
  latest(accountId: string, url: string, tag: string): Promise<PageSnapshot | null>;
  /** Records a snapshot and drops all but the newest `keep` of its (account, url, tag). */
  record(snapshot: PageSnapshot, keep: number): Promise<void>;
  /** The snapshots of (account, url, tag), newest first, at most `limit`. */
  history(accountId: string, url: string, tag: string, limit: number): Promise<PageSnapshot[]>;
}

export type WatchStatus = "active" | "paused" | "error";

/**
 * A watch: a page checked for changes every `intervalMinutes`. `options` (fetch options and
 * noise rules) and `webhook` are the caller's validated JSON; src/watch reads them.
 */
export interface WatchRecord {
  id: string;
  accountId: string;
  url: string;
  name: string | null;
  status: WatchStatus;
  intervalMinutes: number;
  options: unknown;
  webhook: unknown;
  /** Fingerprint of the compared content at the last successful check; null until the baseline. */
  lastFingerprint: string | null;
  /** The compared content of the last successful check: what the next check diffs against. */
  baseline: string | null;
  lastCheckedAt: number | null;
  lastChangedAt: number | null;
  lastError: string | null;
  changeCount: number;
  checkCount: number;
  /** When the scheduler should check next (ms since epoch). */
  nextCheckAt: number;
  /** Bumped whenever what a check reads (url, options) changes: a check begun before is not recorded. */
  revision: number;
  createdAt: number;
  updatedAt: number;
}

/** One recorded check of a watch. */
export interface WatchCheckRecord {
  id: string;
  watchId: string;
  checkedAt: number;
  trigger: "scheduled" | "manual";
  status: "baseline" | "same" | "changed" | "error";
  fingerprint: string | null;
  previousFingerprint: string | null;
  summary: string;
  addedText: string[];
  removedText: string[];
  diff: string | null;
  statusCode: number | null;
  error: string | null;
}

/** Who holds a watch's check, and until when (ms since epoch): a claim past `until` is free again. */
export interface WatchClaim {
  token: string;
  until: number;
}

/** Fields of a watch its owner may change; `revision: true` bumps the revision (the baseline is reset by the caller). */
export type WatchPatch = Partial<
  Pick<
    WatchRecord,
    | "url"
    | "name"
    | "status"
    | "intervalMinutes"
    | "options"
    | "webhook"
    | "nextCheckAt"
    | "lastFingerprint"
    | "baseline"
  >
> & { revision?: boolean };

/**
 * What a finished check writes: `status` is the watch's status unless it was paused meanwhile
 * (a paused watch stays paused); `nextCheckAt` is written only while the watch's interval is
 * still `intervalMinutes` (a PATCH in between set its own); fingerprint and baseline only when
 * given (a failed check leaves them).
 */
export interface WatchCheckState {
  status: "active" | "error";
  lastError: string | null;
  fingerprint?: { lastFingerprint: string; baseline: string };
  changed: boolean;
  checkedAt: number;
  intervalMinutes: number;
  nextCheckAt: number;
}

/**
 * Watches and their check history. Claims are compare-and-set, so two processes (or a
 * scheduler and a manual check) never run a check of one watch at once.
 */
export interface WatchStore {
  create(watch: WatchRecord): Promise<void>;
  get(id: string): Promise<WatchRecord | null>;
  /** An account's watches, oldest first. */
  list(accountId: string, limit: number, offset: number): Promise<WatchRecord[]>;
  count(accountId: string): Promise<number>;
  /** Applies `patch`; the watch afterwards, or null when there is none. */
  update(id: string, patch: WatchPatch, at: number): Promise<WatchRecord | null>;
  /** Deletes a watch and its history; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Claims one watch unless another claim on it holds at `now`; the watch as claimed, or null. */
  claim(id: string, now: number, claim: WatchClaim): Promise<WatchRecord | null>;
  /**
   * Claims up to `limit` watches due at `now` (not paused, nextCheckAt <= now, no claim
   * holding), most overdue first, in one atomic step.
   */
  claimDue(now: number, limit: number, claim: WatchClaim): Promise<WatchRecord[]>;
  /** Gives a claim up without recording anything (the token must still hold it). */
  release(id: string, token: string): Promise<void>;
  /**
   * Records a finished check in one step: the watch's state, the check in its history (trimmed
   * to the newest `keep`), and the claim released. Only while `token` holds the claim and the
   * watch is still at `revision`; false (nothing recorded, the claim released) otherwise.
   */
  finishCheck(
    id: string,
    token: string,
    revision: number,
    state: WatchCheckState,
    check: WatchCheckRecord,
    keep: number,
  ): Promise<boolean>;
  /** A watch's checks, newest first. */
  checks(watchId: string, limit: number, offset: number): Promise<WatchCheckRecord[]>;
  getCheck(watchId: string, checkId: string): Promise<WatchCheckRecord | null>;
}

/**
 * Everything siphon persists. SQLite by default; the hosted mode moves parts
 * to PostgreSQL and Redis behind these same interfaces.
 */
export interface Store {
  readonly kind: "sqlite" | "postgres";
  cache: CacheStore;
  accounts: AccountStore;
  usage: UsageStore;
  jobs: JobStore;
  snapshots: SnapshotStore;
  watches: WatchStore;
  close(): Promise<void>;
}
