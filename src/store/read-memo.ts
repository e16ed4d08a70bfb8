import type { Database } from "bun:sqlite";

/**
 * SQLite's data_version of one connection: it changes whenever another
 * connection (another process: `siphon keys revoke`) commits. Read at most
 * once per event-loop turn and shared by every memo of the connection: a
 * request's reads all run in one turn, so a commit by another process is
 * still seen by the next request, for one ~2 µs pragma read per turn.
 */
export class DataVersion {
  private readonly pragma;
  private value = -1;
  private checked = false;

  constructor(sqlite: Database) {
    this.pragma = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  }

  current(): number {
    if (!this.checked) {
      this.checked = true;
      setImmediate(() => {
        this.checked = false;
      });
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
