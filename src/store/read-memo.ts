import type { Database } from "bun:sqlite";

/**
 * Memoised reads that stay exact: SQLite's data_version changes whenever
 * another connection (another process: `siphon keys revoke`) commits, so the
 * memo is dropped then, and writers in this process call `clear()`. Reading
 * the pragma costs ~2 µs, a memo hit saves the query and the row mapping.
 */
export class ReadMemo<T> {
  private readonly version;
  private seen = -1;
  private checked = false;
  private readonly values = new Map<string, T>();

  constructor(sqlite: Database) {
    this.version = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  }

  get(key: string, load: () => T): T {
    // One check per event-loop turn: a request's reads all run in one turn, so a commit by
    // another process is still seen by the next request, at a third of the pragma reads.
    if (!this.checked) {
      this.checked = true;
      setImmediate(() => {
        this.checked = false;
      });
      const version = this.version.get()?.data_version ?? -1;
      if (version !== this.seen) {
        this.values.clear();
        this.seen = version;
      }
    }
    if (this.values.has(key)) return this.values.get(key) as T;
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
