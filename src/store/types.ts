/** A cached value with the time it was written (ms since epoch). */
export interface CacheEntry<T = unknown> {
  value: T;
  createdAt: number;
}

/** Key-value cache of fetch results. Freshness is the caller's decision (maxAge), not the store's. */
export interface CacheStore {
  get<T>(key: string): Promise<CacheEntry<T> | null>;
  set<T>(key: string, url: string, value: T, createdAt: number): Promise<void>;
  /** Removes entries written before `before` (ms since epoch); returns how many. */
  prune(before: number): Promise<number>;
}

/**
 * Everything siphon persists. SQLite by default; the hosted mode moves parts
 * to PostgreSQL and Redis behind these same interfaces.
 */
export interface Store {
  readonly kind: "sqlite";
  cache: CacheStore;
  close(): Promise<void>;
}
