import type { Database } from "bun:sqlite";
import { DataVersion, ReadMemo } from "./read-memo.ts";
import type { CacheEntry, CacheStore } from "./types.ts";

/** How the cache bounds itself. */
export interface CacheLimits {
  /** Size cap in bytes (values and bodies); least recently used entries go first past it. */
  maxBytes: number;
  /** Entries older than this are removed: no request may accept an older one. */
  maxAgeMs: number;
}

/** Reading an entry records the access at most this often, so a hot entry is not a write per hit. */
const TOUCH_EVERY_MS = 60_000;
/** Expired entries are swept at most this often (on writes). */
const SWEEP_EVERY_MS = 60_000;
/** Eviction brings the cache down to this share of the cap, so it does not run on every write. */
const EVICT_TO = 0.9;

interface Row {
  value: string;
  body: Uint8Array | null;
  created_at: number;
  accessed_at: number;
}

/** Rows read are kept up to this many bytes (a few hundred pages): a hot page is then no query. */
const ROWS_MEMO_BYTES = 16 * 1024 * 1024;

/**
 * The entry of a row read: its value and bytes are made on first use, each once, so a hit whose
 * result is rendered already (the render memo) parses no JSON and copies no bytes (a copy of a
 * page's bytes per request cost the server more than the rest of its cache read). The bytes are
 * a copy: the row's stay as read for the next request.
 */
function entryOf<T>(row: Row, value: T | undefined): CacheEntry<T> {
  let parsed = value;
  let bytes: Uint8Array | null | undefined;
  return {
    createdAt: row.created_at,
    get value(): T {
      parsed ??= JSON.parse(row.value) as T;
      return parsed;
    },
    get body(): Uint8Array | null {
      if (bytes === undefined) bytes = row.body ? new Uint8Array(row.body) : null;
      return bytes;
    },
  };
}

/**
 * The SQLite cache: entries keyed by the caller, least recently used ones evicted past
 * `limits.maxBytes`, entries older than `limits.maxAgeMs` swept on writes. The running size is
 * read once and then kept, so a write costs no table scan (another process writing the same file
 * keeps its own count; each evicts by the same rule).
 */
export function sqliteCache(
  sqlite: Database,
  limits: CacheLimits,
  version: DataVersion = new DataVersion(sqlite),
): CacheStore {
  const byKey = sqlite.query<Row, [string]>(
    "SELECT value, body, created_at, accessed_at FROM cache_entries WHERE key = ?",
  );
  const touch = sqlite.query("UPDATE cache_entries SET accessed_at = ? WHERE key = ?");
  const sizeOf = sqlite.query<{ size: number }, [string]>("SELECT size FROM cache_entries WHERE key = ?");
  const upsert = sqlite.query(
    `INSERT INTO cache_entries (key, url, value, body, size, created_at, accessed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET url = excluded.url, value = excluded.value, body = excluded.body,
       size = excluded.size, created_at = excluded.created_at, accessed_at = excluded.accessed_at`,
  );
  const total = sqlite.query<{ total: number | null }, []>("SELECT SUM(size) AS total FROM cache_entries");
  const sweep = sqlite.query("DELETE FROM cache_entries WHERE created_at < ?");
  const oldest = sqlite.query<{ key: string; size: number }, [number]>(
    "SELECT key, size FROM cache_entries ORDER BY accessed_at, created_at LIMIT ?",
  );
  const remove = sqlite.query("DELETE FROM cache_entries WHERE key = ?");

  // Rows as read, kept until another connection commits (data_version) or this one writes; whether
  // a row's value parses is learnt once.
  const rows = new ReadMemo<(Row & { parses?: boolean }) | null>(version, {
    maxBytes: ROWS_MEMO_BYTES,
    weigh: (row) => (row ? row.value.length + (row.body?.byteLength ?? 0) : 0),
  });
  let bytes: number | undefined;
  let lastSweep = 0;
  const used = () => {
    bytes ??= total.get()?.total ?? 0;
    return bytes;
  };

  /** Deletes least recently used entries until the cache is under EVICT_TO of the cap. */
  const evict = sqlite.transaction(() => {
    const target = limits.maxBytes * EVICT_TO;
    while (used() > target) {
      const rows = oldest.all(64);
      if (rows.length === 0) break;
      for (const row of rows) {
        remove.run(row.key);
        bytes = used() - row.size;
        if (used() <= target) break;
      }
    }
  });

  return {
    async get<T>(key: string, now: number): Promise<CacheEntry<T> | null> {
      const row = rows.get(key, () => byKey.get(key));
      if (!row) return null;
      if (now - row.created_at > limits.maxAgeMs) return null;
      let value: T | undefined;
      if (row.parses === undefined) {
        try {
          value = JSON.parse(row.value) as T;
          row.parses = true;
        } catch {
          row.parses = false;
        }
      }
      if (!row.parses) return null;
      if (now - row.accessed_at >= TOUCH_EVERY_MS) {
        touch.run(now, key);
        row.accessed_at = now;
      }
      return entryOf<T>(row, value);
    },
    async set<T>(key: string, url: string, entry: { value: T; body?: Uint8Array; createdAt: number }) {
      const json = JSON.stringify(entry.value);
      const size = json.length + (entry.body?.byteLength ?? 0) + key.length + url.length;
      // An entry bigger than the whole cache would evict everything and then itself.
      if (size > limits.maxBytes) return;
      const before = used() - (sizeOf.get(key)?.size ?? 0);
      upsert.run(key, url, json, entry.body ?? null, size, entry.createdAt, entry.createdAt);
      bytes = before + size;
      if (entry.createdAt - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = entry.createdAt;
        if (sweep.run(entry.createdAt - limits.maxAgeMs).changes > 0) bytes = undefined;
      }
      if (used() > limits.maxBytes) evict();
      rows.clear();
    },
  };
}
