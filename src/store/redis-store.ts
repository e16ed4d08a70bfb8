import { MAX_CACHE_AGE_MS } from "../schemas/fetch.ts";
import { redisCache } from "./redis-cache.ts";
import { RedisConnection, type RedisConnectionOptions } from "./redis-connection.ts";
import { redisUsage } from "./redis-usage.ts";
import type { Store } from "./types.ts";

/** Options of the Redis parts; each has a default. */
export interface RedisStoreOptions extends RedisConnectionOptions {
  /** Cache size cap, bytes (SIPHON_CACHE_MAX_BYTES). */
  cacheMaxBytes?: number;
}

const DEFAULT_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** A store whose cache and usage run on Redis; `redis` is its connection, for the job queue's events. */
export interface RedisComposedStore extends Store {
  readonly redis: RedisConnection;
}

/**
 * Moves the parts of `base` that every request touches onto the Redis at
 * `url`: the fetch cache, and usage (burst windows in Redis; weekly credits
 * in Redis over `base`'s durable counters; the request log stays in `base`).
 * Accounts, jobs, snapshots and watches stay in `base`. Closing the store
 * closes both. Throws store_unavailable when Redis cannot be reached (and
 * closes nothing of `base`: the caller owns it until this answers).
 */
export async function withRedis(
  base: Store,
  url: string,
  options: RedisStoreOptions = {},
): Promise<RedisComposedStore> {
  const redis = new RedisConnection(url, options);
  await redis.open();
  return {
    ...base,
    kind: base.kind,
    redis,
    cache: redisCache(redis, {
      maxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
      maxAgeMs: MAX_CACHE_AGE_MS,
    }),
    usage: redisUsage(redis, base.usage),
    async close() {
      await base.close();
      await redis.close();
    },
  };
}

/** The Redis connection of a store composed by `withRedis`, or null for a store without Redis. */
export function redisOf(store: Store): RedisConnection | null {
  return (store as Partial<RedisComposedStore>).redis ?? null;
}
