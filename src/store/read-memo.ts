import type { Database } from "bun:sqlite";

/** How long a data_version read stays fresh. */
const FRESH_MS = 1;

/** One connection's data_version as last read, and when. */
interface VersionRead {
  pragma: { get(): { data_version: number } | null };
  value: number;
  readAt: number;
}

/** The reads of every DataVersion on the performance clock, by connection: one pragma a millisecond each. */
const reads = new WeakMap<Database, VersionRead>();

/**
 * SQLite's data_version of one connection: it changes whenever another
 * connection (another process: `siphon keys revoke`) commits. Shared by
 * every memo of the connection (every DataVersion of it on the default
 * clock reads the same) and read again once it is a millisecond old, so a
 * commit by another process is seen by every request that starts a
 * millisecond later, while a busy server pays one ~2 µs pragma read per
 * millisecond rather than several per request.
 */
export class DataVersion {
  private readonly read: VersionRead;
  /** A test's clock; the performance clock when undefined (called directly: several reads a request). */
  private readonly clock: (() => number) | undefined;

  constructor(sqlite: Database, clock?: () => number) {
    this.clock = clock;
    const shared = clock ? undefined : reads.get(sqlite);
    this.read = shared ?? {
      pragma: sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version"),
      value: -1,
      readAt: Number.NEGATIVE_INFINITY,
    };
    if (!clock && !shared) reads.set(sqlite, this.read);
  }

  current(): number {
    const now = this.clock === undefined ? performance.now() : this.clock();
    const read = this.read;
    if (now - read.readAt >= FRESH_MS) {
      read.readAt = now;
      read.value = read.pragma.get()?.data_version ?? -1;
    }
    return read.value;
  }
}

/** How much a memo may hold: entries, and optionally bytes by a weight of each value. */
export interface MemoBounds<T> {
  maxEntries?: number;
  /** With `weigh`: the most the values may weigh together. */
  maxBytes?: number;
  weigh?: (value: T) => number;
}

/**
 * Memoised reads that stay exact: the memo is dropped when the connection's
 * data_version moves (another process committed), and writers in this
 * process call `clear()` or `set()`. A hit saves the query and the row mapping.
 * Past its bounds (10,000 entries by default) the memo starts again: a flood
 * of distinct keys must not grow memory without end.
 */
export class ReadMemo<T> {
  private seen = -1;
  private readonly values = new Map<string, T>();
  private bytes = 0;
  private readonly maxEntries: number;

  constructor(
    private readonly version: DataVersion,
    private readonly bounds: MemoBounds<T> = {},
  ) {
    this.maxEntries = bounds.maxEntries ?? 10_000;
  }

  get(key: string, load: () => T): T {
    const version = this.version.current();
    if (version !== this.seen) {
      this.clear();
      this.seen = version;
    }
    // Memoised values are never undefined (a missing row is null), so one lookup tells a hit.
    const hit = this.values.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    this.set(key, value);
    return value;
  }

  /** Drops everything (this process wrote what the memo holds). */
  clear(): void {
    this.values.clear();
    this.bytes = 0;
  }

  /** Replaces one value this process just wrote. */
  set(key: string, value: T): void {
    const { weigh, maxBytes = Number.POSITIVE_INFINITY } = this.bounds;
    const weight = weigh ? weigh(value) : 0;
    const previous = this.values.get(key);
    if (previous !== undefined && weigh) this.bytes -= weigh(previous);
    if (weight > maxBytes) {
      this.values.delete(key);
      return;
    }
    if (this.values.size >= this.maxEntries || this.bytes + weight > maxBytes) this.clear();
    this.values.set(key, value);
    this.bytes += weight;
  }
}
