import { KEY_PREFIX, type RedisConnection } from "./redis-connection.ts";
import type { UsageStore } from "./types.ts";

/**
 * One subject's sliding window, checked and counted in one step: requests
 * that left the window are dropped, the rest counted, and this one added when
 * fewer than the limit remain. Members are unique per request, so requests in
 * the same millisecond count one by one. Redis runs a script alone, so
 * concurrent requests from any number of processes never overshoot.
 * Times arrive as text: Lua would print a 13-digit number as 1.8e+12.
 */
const TAKE_SLOT = `
local key = KEYS[1]
redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[2])
local used = redis.call('ZCARD', key)
local allowed = 0
if used < tonumber(ARGV[3]) then
  redis.call('ZADD', key, ARGV[1], ARGV[4])
  redis.call('PEXPIRE', key, ARGV[5])
  used = used + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {allowed, used, oldest[2] or ''}`;

/** The window as it stands without counting; an empty reply when the subject has no window. */
const PEEK_WINDOW = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
local used = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[1], '+inf')
local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
return {used, oldest[2] or ''}`;

/** Raises a counter to at least ARGV[1] (never lowers it) and answers the counter. */
const RAISE_TO = `
local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
local total = tonumber(ARGV[1])
if current < total then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return tostring(current)`;

/** Weekly counters whose last raise from this process is remembered. */
const RAISED_KEPT = 10_000;
/** Weekly counters outlive their week by a day, so a late settlement still finds its own. */
const WEEK_TTL_MS = 8 * 24 * 3_600_000;

/** The scripts as this module defines them on its client. */
interface UsageScripts {
  siphonTakeSlot(
    key: string,
    now: string,
    cutoff: string,
    limit: number,
    member: string,
    ttlMs: number,
  ): Promise<[number, number, string]>;
  siphonPeekWindow(key: string, cutoff: string): Promise<[number, string] | []>;
  siphonRaiseTo(key: string, total: number, ttlMs: number): Promise<string>;
}

/**
 * Usage on Redis, composed with `durable` (the SQLite or PostgreSQL store's
 * usage) for what must outlive Redis:
 * - burst windows live in Redis only, one sorted set per subject, checked
 *   and counted by one script: exact across every process, one round trip;
 * - weekly credits are written to `durable` first (the record of what was
 *   charged, never lost with Redis) and mirrored in a Redis counter that is
 *   only ever raised to the durable total, so the per-request read is one
 *   Redis GET, and a counter Redis lost is read once from `durable` again;
 * - the request log (statistics) stays in `durable`, buffered as it is there,
 *   and so does the window of a subject that never takes slots (an
 *   unlimited plan's), which only its logged requests show.
 */
export function redisUsage(redis: RedisConnection, durable: UsageStore): UsageStore {
  const client = redis.client;
  client.defineCommand("siphonTakeSlot", { numberOfKeys: 1, lua: TAKE_SLOT });
  client.defineCommand("siphonPeekWindow", { numberOfKeys: 1, lua: PEEK_WINDOW, readOnly: true });
  client.defineCommand("siphonRaiseTo", { numberOfKeys: 1, lua: RAISE_TO });
  const scripts = client as unknown as UsageScripts;
  // Members must be unique across processes: this process's token and a counter.
  const token = crypto.randomUUID().slice(0, 8);
  let seq = 0;
  /**
   * The highest total this process raised each weekly counter to: a lower or equal one needs no
   * raise (a counter Redis lost meanwhile is read from the durable store again anyway).
   */
  const raised = new Map<string, number>();
  const windowKey = (subject: string) => `${KEY_PREFIX}burst:${subject}`;
  const weekKey = (accountId: string, weekStart: number) => `${KEY_PREFIX}week:${accountId}:${weekStart}`;

  return {
    takeBurstSlot(subject, now, windowMs, limit) {
      return redis.run(async () => {
        const [allowed, used, oldest] = await scripts.siphonTakeSlot(
          windowKey(subject),
          String(now),
          String(now - windowMs),
          limit,
          `${now}:${token}:${seq++}`,
          windowMs,
        );
        return {
          allowed: allowed === 1,
          used: Number(used),
          oldestExpiresAt: used && oldest !== "" ? Number(oldest) + windowMs : now,
        };
      });
    },
    async peekBurst(subject, now, windowMs) {
      const window = await redis.run(() =>
        scripts.siphonPeekWindow(windowKey(subject), String(now - windowMs)),
      );
      if (window.length === 0) return durable.peekBurst(subject, now, windowMs);
      const [used, oldest] = window;
      return { used: Number(used), oldestExpiresAt: used && oldest !== "" ? Number(oldest) + windowMs : now };
    },
    async addCredits(accountId, weekStart, credits) {
      const total = await durable.addCredits(accountId, weekStart, credits);
      const key = weekKey(accountId, weekStart);
      // Charges made together (a crawl's pages) share one durable total: one raise does for them.
      if (credits >= 0 && (raised.get(key) ?? -1) >= total) return total;
      if (credits < 0) raised.delete(key);
      else {
        if (raised.size >= RAISED_KEPT) raised.delete(raised.keys().next().value as string);
        raised.set(key, total);
      }
      // The durable store has the charge: a Redis that cannot take it now is read again from there
      // once it is back empty, so the request that was charged does not fail for it.
      await redis
        .run<unknown>((r) => (credits < 0 ? r.del(key) : scripts.siphonRaiseTo(key, total, WEEK_TTL_MS)))
        .catch(() => raised.delete(key));
      return total;
    },
    async weeklyCredits(accountId, weekStart) {
      const key = weekKey(accountId, weekStart);
      const cached = await redis.run((r) => r.get(key));
      if (cached !== null) return Number(cached);
      const total = await durable.weeklyCredits(accountId, weekStart);
      return Number(await redis.run(() => scripts.siphonRaiseTo(key, total, WEEK_TTL_MS)));
    },
    logRequest: (entry) => durable.logRequest(entry),
    stats: (accountId) => durable.stats(accountId),
    daily: (accountId, since) => durable.daily(accountId, since),
    periods: (accountId, since, byKey) => durable.periods(accountId, since, byKey),
  };
}
