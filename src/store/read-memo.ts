import type { Database } from "bun:sqlite";

/** How long a data_version read stays fresh. */
const FRESH_MS = 1;

/**
 * SQLite's data_version of one connection: it changes whenever another
 * connection (another process: `siphon keys revoke`) commits. Shared by
 * every memo of the connection and read again once it is a millisecond old,
 * so a commit by another process is seen by every request that starts a
 * millisecond later, while a busy server pays one ~2 µs pragma read per
 * millisecond rather than several per request.
 */
export class DataVersion {
  private readonly pragma;
  private value = -1;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(
    sqlite: Database,
    private readonly clock: () => number = performance.now.bind(performance),
  ) {
    this.pragma = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  }

  current(): number {
    const now = this.clock();
    if (now - this.readAt >= FRESH_MS) {
      this.readAt = now;
      this.value = this.pragma.get()?.data_version ?? -1;
    }
    return this.value;
  }
}

/**
 * Memoised reads that stay exact: the memo is dropped when the connection's
 * data_version moves (another process committed), and writers in this
 * process call `clear()` or `set()`. A hit saves the query and the row mapping.
 */
export class ReadMemo<T> {
  private seen = -1;
  private readonly values = new Map<string, T>();

  constructor(private readonly version: DataVersion) {}

  get(key: string, load: () => T): T {
    const version = this.version.current();
    if (version !== this.seen) {
      this.values.clear();
      this.seen = version;
    }
    // Memoised values are never undefined (a missing row is null), so one lookup tells a hit.
    const hit = this.values.get(key);
    if (hit !== undefined) return hit;
    const value = load();
    // Bounded: a flood of unknown keys must not grow memory without end.
    if (this.values.size >= 10_000) this.values.clear();
    this.values.set(key, value);
    return value;
  }

  /** Drops everything (this process wrote what the memo holds). */
  clear(): void {
    this.values.clear();
  }

  /** Replaces one value this process just wrote. */
  set(key: string, value: T): void {
    this.values.set(key, value);
  }
}
