import { Redis, type RedisOptions } from "ioredis";
import { SiphonError } from "../errors.ts";

/** How the Redis client bounds its waits; each has a default. */
export interface RedisConnectionOptions {
  /** Longest a command may wait for its reply, ms. */
  commandTimeoutMs?: number;
  /** Longest to wait for the first connection, ms. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts, ms. */
  maxReconnectDelayMs?: number;
}

const DEFAULTS = { commandTimeoutMs: 2_000, connectTimeoutMs: 5_000, maxReconnectDelayMs: 1_000 };

/** Every key siphon writes starts with this, so one Redis can be shared with other applications. */
export const KEY_PREFIX = "siphon:";

/** The 503 a caller sees while Redis cannot serve; never names the server or the URL. */
export function redisUnavailable(reason: string, cause?: unknown): SiphonError {
  return new SiphonError("store_unavailable", `Redis is unavailable (${reason}); retry shortly.`, {
    hint: "Check that Redis (REDIS_URL) is running and reachable; a running siphon reconnects by itself once it is back.",
    cause,
    headers: { "retry-after": "1" },
  });
}

/**
 * Why `error` means Redis cannot serve right now, or null when it is an
 * ordinary failure of the command (a script error, a wrong type). Redis's own
 * replies while it starts or fails over (LOADING, BUSY, READONLY, MASTERDOWN,
 * TRYAGAIN) count as unavailable: a retry resolves them.
 */
export function redisUnavailableReason(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const message = error.message;
  if (error.name === "ReplyError") {
    const code = message.split(" ", 1)[0] ?? "";
    if (["LOADING", "BUSY", "READONLY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN"].includes(code))
      return `server busy (${code})`;
    return null;
  }
  if (error.name === "MaxRetriesPerRequestError") return "connection lost";
  if (/timed out/i.test(message)) return "no answer in time";
  if (/ECONNREFUSED/.test(message)) return "connection refused";
  if (
    /enableOfflineQueue|Connection is closed|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND/.test(message)
  )
    return "not connected";
  return null;
}

/**
 * ioredis options for siphon's own store calls: a command while disconnected
 * fails at once (no offline queue), one in flight when the connection drops
 * fails rather than waiting for a reconnection, every command is bounded in
 * time, and the client reconnects forever in the background, so service
 * resumes by itself when Redis returns.
 */
function storeOptions(options: Required<RedisConnectionOptions>): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), options.maxReconnectDelayMs),
    lazyConnect: true,
    connectionName: "siphon",
  };
}

/**
 * One client to Redis for store calls, and the place they go through: a
 * Redis that is down, unreachable or restarting becomes a store_unavailable
 * SiphonError at once; other errors pass through.
 */
export class RedisConnection {
  readonly client: Redis;
  private closed = false;
  /** The last connection error, kept for the message when opening fails. */
  private lastError: unknown;

  constructor(
    readonly url: string,
    options: RedisConnectionOptions = {},
  ) {
    this.client = new Redis(url, storeOptions({ ...DEFAULTS, ...options }));
    // Without a listener ioredis prints every failed reconnection; the failures reach callers as 503s.
    this.client.on("error", (error) => {
      this.lastError = error;
    });
  }

  /** Connects, or throws store_unavailable when Redis does not answer within the connect timeout. */
  async open(): Promise<void> {
    try {
      await this.client.connect();
      await this.client.ping();
    } catch (error) {
      this.client.disconnect();
      throw redisUnavailable(
        redisUnavailableReason(error) ?? redisUnavailableReason(this.lastError) ?? "no connection",
        error,
      );
    }
  }

  /** Runs one store call: its outcome, or store_unavailable when Redis cannot serve. */
  async run<T>(op: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.closed) throw redisUnavailable("store closed");
    try {
      return await op(this.client);
    } catch (error) {
      if (error instanceof SiphonError) throw error;
      const reason = redisUnavailableReason(error);
      if (reason) throw redisUnavailable(reason, error);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
