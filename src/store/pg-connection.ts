import { SQL } from "bun";
import { type BunSQLDatabase, drizzle } from "drizzle-orm/bun-sql";
import { SiphonError } from "../errors.ts";

/** How the PostgreSQL store bounds its waits; each has a default. */
export interface PgOptions {
  /** Longest a statement may run (server side), ms; a store call gives up a second after. */
  timeoutMs?: number;
  /** Longest to wait for a new connection, ms. */
  connectTimeoutMs?: number;
  /** Connections in the pool. */
  maxConnections?: number;
}

const DEFAULTS = { timeoutMs: 10_000, connectTimeoutMs: 5_000, maxConnections: 10 };

/** Bun's codes for a connection that could not be made or was lost. */
const LOST = new Set([
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_FAILED",
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
  "ERR_POSTGRES_QUERY_CANCELLED",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EPIPE",
]);

/**
 * Why `error` means the database cannot serve right now, or null when it is
 * an ordinary failure of the statement. SQLSTATE classes: 08 connection, 28
 * login, 53 out of resources, 57 cancelled or shutting down, 58 system; and
 * lock waits, deadlocks and serialization failures, which a retry resolves.
 */
export function unavailableReason(error: unknown): string | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, errno } = e as { code?: unknown; errno?: unknown };
    if (typeof code === "string" && LOST.has(code)) {
      if (code.endsWith("REFUSED")) return "connection refused";
      if (code.endsWith("TIMEOUT") && code.includes("CONNECTION")) return "no connection in time";
      return "connection lost";
    }
    if (typeof errno === "string") {
      if (errno === "57014") return "statement timed out";
      if (errno.startsWith("57P")) return "server shutting down or starting";
      if (errno.startsWith("08")) return "connection failed";
      if (errno.startsWith("28")) return "login refused";
      if (errno === "3D000") return "database does not exist";
      if (errno.startsWith("53")) return "server out of resources";
      if (errno.startsWith("58")) return "server system error";
      if (errno === "55P03" || errno === "40P01" || errno === "40001") return "busy";
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** The 503 a caller sees while PostgreSQL cannot serve; never names the server or the URL. */
export function storeUnavailable(reason: string, cause?: unknown): SiphonError {
  return new SiphonError("store_unavailable", `The database is unavailable (${reason}); retry shortly.`, {
    hint: "Check that PostgreSQL (DATABASE_URL) is running and reachable; a running siphon reconnects by itself once it is back.",
    cause,
    headers: { "retry-after": "1" },
  });
}

/**
 * A pool of connections to PostgreSQL through Bun's SQL client, and the one
 * place store calls go through: each is bounded in time and a database that is
 * down, unreachable or shutting down becomes a store_unavailable SiphonError
 * at once (Bun fails a refused connection immediately and reconnects on the
 * next call, so service resumes by itself). A call the server does not answer
 * even past its statement timeout (a dead network) replaces the pool, so
 * hung connections cannot hold it once the network is back.
 */
export class PgConnection {
  private client: SQL;
  private database: BunSQLDatabase;
  private readonly options: Required<PgOptions>;
  private readonly listeners: { channel: string; onNotify: () => void }[] = [];
  private subscriptions: Promise<SQL.ListenSubscription | null>[] = [];
  private closed = false;

  constructor(
    private readonly url: string,
    options: PgOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.client = this.connect();
    this.database = drizzle({ client: this.client });
  }

  private connect(): SQL {
    const { timeoutMs, connectTimeoutMs, maxConnections } = this.options;
    return new SQL(this.url, {
      max: maxConnections,
      connectionTimeout: connectTimeoutMs / 1000,
      idleTimeout: 60,
      connection: {
        statement_timeout: timeoutMs,
        lock_timeout: timeoutMs,
        idle_in_transaction_session_timeout: timeoutMs * 3,
        application_name: "siphon",
      },
    });
  }

  /** The drizzle database of the current pool (for a call running inside `run`). */
  get db(): BunSQLDatabase {
    return this.database;
  }

  /**
   * Runs one store call: its outcome, or store_unavailable when the database
   * cannot serve or does not answer in time. Other errors pass through.
   */
  async run<T>(op: (db: BunSQLDatabase) => Promise<T>): Promise<T> {
    if (this.closed) throw storeUnavailable("store closed");
    const limit = this.options.timeoutMs + 1_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineError()), limit);
    });
    const pool = this.client;
    try {
      return await Promise.race([op(this.database), deadline]);
    } catch (error) {
      if (error instanceof DeadlineError) {
        this.replace(pool);
        throw storeUnavailable(`no answer within ${limit} ms`, error);
      }
      if (error instanceof SiphonError) throw error;
      const reason = unavailableReason(error);
      if (reason) throw storeUnavailable(reason, error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Swaps in a new pool unless another call already did; the old one's hung calls fail. */
  private replace(stale: SQL): void {
    if (this.closed || this.client !== stale) return;
    this.client = this.connect();
    this.database = drizzle({ client: this.client });
    void stale.close({ timeout: 0 }).catch(() => {});
    this.subscriptions = this.listeners.map((l) => this.subscribe(l.channel, l.onNotify));
  }

  private subscribe(channel: string, onNotify: () => void): Promise<SQL.ListenSubscription | null> {
    // onlisten runs on every (re)subscription: what was sent while unsubscribed counts as a change.
    return this.client.listen(channel, onNotify, onNotify).catch(() => null);
  }

  /**
   * Calls `onNotify` for each notification on `channel`, and whenever the
   * subscription is made again after a lost connection (notifications may
   * have been missed). Resolves once subscribed.
   */
  async listen(channel: string, onNotify: () => void): Promise<void> {
    this.listeners.push({ channel, onNotify });
    const subscription = this.client.listen(channel, onNotify, onNotify);
    this.subscriptions.push(subscription.catch(() => null));
    await this.run(() => subscription);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const subscription of await Promise.all(this.subscriptions))
      await subscription?.unlisten().catch(() => {});
    await this.client.close({ timeout: 5 }).catch(() => {});
  }
}

class DeadlineError extends Error {}
