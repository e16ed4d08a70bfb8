import { KEY_PREFIX, type RedisConnection } from "./redis-connection.ts";
import type { CacheLimits } from "./sqlite-cache.ts";
import type { CacheEntry, CacheStore } from "./types.ts";

/** Reading an entry records the access at most this often, so a hot entry is not a write per hit. */
const TOUCH_EVERY_MS = 60_000;
/** Eviction brings the cache down to this share of the cap, so it does not run on every write. */
const EVICT_TO = 0.9;
/** Entries past the longest age dropped per write, at most (the rest go on later writes). */
const SWEEP_BATCH = 64;

const ENTRY = `${KEY_PREFIX}cache:e:`;
const LRU = `${KEY_PREFIX}cache:lru`;
const SIZES = `${KEY_PREFIX}cache:sizes`;
const BYTES = `${KEY_PREFIX}cache:bytes`;

/**
 * Writes an entry and keeps the cache within its cap, in one step. The entry
 * is a hash (v: value JSON, b: body, c: created, a: last access); LRU orders
 * keys by last access, SIZES holds each key's size and BYTES their sum.
 * Entries not read since before the sweep cutoff were written before it too,
 * so they are past the longest age and go; then, past the cap, the least
 * recently used go until the cache is under the target. An entry whose hash
 * Redis already expired still has its size counted until then.
 * KEYS: entry, LRU, SIZES, BYTES. ARGV: key, value, body, created, size,
 * cap, target, sweep cutoff, ttl ms, has body (1/0), entry key prefix, sweep batch.
 */
const SET_ENTRY = `
local member = ARGV[1]
local used
local function drop(m)
  local s = redis.call('HGET', KEYS[3], m)
  if s then used = redis.call('DECRBY', KEYS[4], s) end
  redis.call('HDEL', KEYS[3], m)
  redis.call('ZREM', KEYS[2], m)
  redis.call('DEL', ARGV[11] .. m)
end
drop(member)
if ARGV[10] == '1' then
  redis.call('HSET', KEYS[1], 'v', ARGV[2], 'b', ARGV[3], 'c', ARGV[4], 'a', ARGV[4])
else
  redis.call('HSET', KEYS[1], 'v', ARGV[2], 'c', ARGV[4], 'a', ARGV[4])
end
redis.call('PEXPIRE', KEYS[1], ARGV[9])
redis.call('ZADD', KEYS[2], ARGV[4], member)
redis.call('HSET', KEYS[3], member, ARGV[5])
used = redis.call('INCRBY', KEYS[4], ARGV[5])
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[8], 'LIMIT', 0, tonumber(ARGV[12]))) do
  drop(m)
end
if used > tonumber(ARGV[6]) then
  local target = tonumber(ARGV[7])
  while used > target do
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 63)
    if #oldest == 0 then break end
    for _, m in ipairs(oldest) do
      drop(m)
      if used <= target then break end
    end
  end
end
return used`;

/** Records a read of an entry that is still there (an evicted one is not brought back). */
const TOUCH_ENTRY = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'a', ARGV[2])
redis.call('ZADD', KEYS[2], 'XX', ARGV[2], ARGV[1])
return 1`;

/** The scripts as this module defines them on its client. */
interface CacheScripts {
  siphonCacheSet(
    entry: string,
    lru: string,
    sizes: string,
    bytes: string,
    ...args: (string | number | Buffer)[]
  ): Promise<number>;
  siphonCacheTouch(entry: string, lru: string, key: string, at: string): Promise<number>;
}

/**
 * The cache in Redis, shared by every process: the same rule as SQLite's
 * (least recently used entries evicted past the cap, entries past the
 * longest age never returned and swept on writes), the bookkeeping kept
 * exact by doing each write and its eviction in one script. A read is one
 * round trip (plus one, at most once a minute per entry, to record it).
 * Entries also expire in Redis after the longest age, so an idle cache
 * empties itself.
 */
export function redisCache(redis: RedisConnection, limits: CacheLimits): CacheStore {
  const client = redis.client;
  client.defineCommand("siphonCacheSet", { numberOfKeys: 4, lua: SET_ENTRY });
  client.defineCommand("siphonCacheTouch", { numberOfKeys: 2, lua: TOUCH_ENTRY });
  const scripts = client as unknown as CacheScripts;
  const target = Math.floor(limits.maxBytes * EVICT_TO);

  return {
    get<T>(key: string, now: number): Promise<CacheEntry<T> | null> {
      return redis.run(async (r) => {
        const [value, body, created, accessed] = await r.hmgetBuffer(ENTRY + key, "v", "b", "c", "a");
        if (!value || !created) return null;
        const createdAt = Number(created.toString());
        if (now - createdAt > limits.maxAgeMs) return null;
        let parsed: T;
        try {
          parsed = JSON.parse(value.toString()) as T;
        } catch {
          return null;
        }
        if (now - Number(accessed?.toString() ?? createdAt) >= TOUCH_EVERY_MS)
          await scripts.siphonCacheTouch(ENTRY + key, LRU, key, String(now));
        return { value: parsed, body: body ? new Uint8Array(body) : null, createdAt };
      });
    },
    set<T>(key: string, url: string, entry: { value: T; body?: Uint8Array; createdAt: number }) {
      const json = JSON.stringify(entry.value);
      // Counted as SQLite counts it, so a cap means the same on either.
      const size = json.length + (entry.body?.byteLength ?? 0) + key.length + url.length;
      // An entry bigger than the whole cache would evict everything and then itself.
      if (size > limits.maxBytes) return Promise.resolve();
      const body = entry.body
        ? Buffer.from(entry.body.buffer, entry.body.byteOffset, entry.body.byteLength)
        : "";
      return redis.run(async () => {
        await scripts.siphonCacheSet(
          ENTRY + key,
          LRU,
          SIZES,
          BYTES,
          key,
          json,
          body,
          String(entry.createdAt),
          size,
          limits.maxBytes,
          target,
          String(entry.createdAt - limits.maxAgeMs),
          limits.maxAgeMs,
          entry.body ? "1" : "0",
          ENTRY,
          SWEEP_BATCH,
        );
      });
    },
  };
}
