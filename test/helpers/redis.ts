/**
 * A throwaway Redis server for tests: redis-server on a free loopback port,
 * its pid file and socket-free working folder in a temp dir, no persistence,
 * stopped by its pid.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, stopAtExit, stopProcess } from "./server-process.ts";

/** The redis-server binary on PATH, or null when Redis is not installed. */
export function redisBin(): string | null {
  return Bun.which("redis-server");
}

export interface TestRedis {
  /** The server's port on 127.0.0.1. */
  port: number;
  /** A URL of database `db` (0-15) on this server. */
  url(db?: number): string;
  /** Stops the server (its data goes: nothing is persisted). */
  stop(): Promise<void>;
  /** Starts the stopped server again on the same port, empty. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

/** Servers started and not yet stopped: stopped when the test process exits, however it exits. */
const running = stopAtExit("SIGKILL");

function pidOf(pidFile: string): number | null {
  if (!existsSync(pidFile)) return null;
  return Number(readFileSync(pidFile, "utf8").trim()) || null;
}

/** Answers once the server on `port` answers PING, or throws after `ms`. */
async function waitForPing(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      Bun.connect({
        hostname: "127.0.0.1",
        port,
        socket: {
          open(socket) {
            socket.write("PING\r\n");
          },
          data(socket, data) {
            resolve(data.toString().startsWith("+PONG"));
            socket.end();
          },
          error() {
            resolve(false);
          },
          connectError() {
            resolve(false);
          },
          close() {
            resolve(false);
          },
        },
      }).catch(() => resolve(false));
    });
    if (ok) return;
    await Bun.sleep(20);
  }
  throw new Error(`redis-server on port ${port} did not answer within ${ms} ms`);
}

/**
 * Starts a fresh server. Throws when Redis is not installed: callers check
 * `redisBin()` first and skip with a message.
 */
export async function startRedis(): Promise<TestRedis> {
  const bin = redisBin();
  if (!bin) throw new Error("redis-server is not installed (scripts/setup.sh installs it)");
  const dir = mkdtempSync(join(tmpdir(), "siphon-redis-"));
  const pidFile = join(dir, "redis.pid");
  const port = freePort();

  const start = async () => {
    const proc = Bun.spawn(
      [
        bin,
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--daemonize",
        "yes",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--pidfile",
        pidFile,
        "--logfile",
        join(dir, "log"),
      ],
      { stdout: "ignore", stderr: "pipe" },
    );
    const code = await proc.exited;
    if (code !== 0)
      throw new Error(`redis-server failed (${code}): ${await new Response(proc.stderr).text()}`);
    running.add(pidFile, () => pidOf(pidFile));
    await waitForPing(port, 10_000);
  };
  const stop = async () => {
    running.delete(pidFile);
    await stopProcess(pidOf(pidFile), "SIGTERM", 10_000);
    rmSync(pidFile, { force: true });
  };

  await start();
  return {
    port,
    url: (db = 0) => `redis://127.0.0.1:${port}/${db}`,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
