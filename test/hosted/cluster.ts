/**
 * Hosted mode on one machine, for tests and the scale bench: Redis and
 * PostgreSQL on loopback, and `siphon serve` processes (API and worker roles)
 * started from the source, each stopped by its pid.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { createAccountWithKey } from "../../src/auth/keys.ts";
import { loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/store/index.ts";
import type { Store } from "../../src/store/types.ts";
import { startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { startRedis, type TestRedis } from "../helpers/redis.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");

export interface ServeProcess {
  role: "api" | "worker" | "all";
  proc: Subprocess;
  /** The API's base URL (api and all roles). */
  url: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends `signal` and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Cluster {
  redis: TestRedis;
  pg: TestPostgres;
  databaseUrl: string;
  /** A store on the cluster's database and Redis, as the processes see it. */
  store: Store;
  env: Record<string, string>;
  /** Starts `siphon serve --role <role>` with the cluster's environment plus `env`. */
  serve(role: ServeProcess["role"], env?: Record<string, string>, args?: string[]): Promise<ServeProcess>;
  /** Creates an account of `tier` with one key. */
  createKey(tier: string): Promise<{ key: string; keyId: string; accountId: string }>;
  close(): Promise<void>;
}

/** Reads a stream into `sink` line by line, resolving `ready` when a line matches. */
function watch(stream: ReadableStream<Uint8Array>, sink: string[], onLine: (line: string) => void) {
  void (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of stream) {
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        sink.push(line);
        onLine(line);
      }
    }
  })().catch(() => {});
}

/** Starts Redis and PostgreSQL; processes are started with `serve`. */
export async function startCluster(base: Record<string, string> = {}): Promise<Cluster> {
  const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  const databaseUrl = await pg.createDatabase("hosted");
  const home = mkdtempSync(join(tmpdir(), "siphon-hosted-"));
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url(),
    SIPHON_HOME: home,
    DISABLE_SSRF_PROTECTION: "true",
    SIPHON_AUTH: "required",
    SIPHON_EXTRACT_THREADS: "0",
    SIPHON_WATCH_SCHEDULER: "false",
    SIPHON_LOG_LEVEL: "info",
    ...base,
  };
  const store = await openStore(loadConfig(env));
  const processes = new Set<ServeProcess>();

  return {
    redis,
    pg,
    databaseUrl,
    store,
    env,
    async serve(role, extra = {}, args = []) {
      const lines: string[] = [];
      const proc = Bun.spawn(["bun", MAIN, "serve", "--role", role, "--port", "0", ...args], {
        // Not the test runner's environment: under bun test, consola would hide the ready line.
        env: { PATH: process.env.PATH ?? "", ...env, ...extra },
        stdout: "pipe",
        stderr: "pipe",
      });
      const ready = new Promise<string>((resolve, reject) => {
        const onLine = (line: string) => {
          const listening = /siphon listening on (http:\/\/\S+)/.exec(line);
          if (listening?.[1]) resolve(listening[1]);
          else if (line.includes("siphon worker ready")) resolve("");
        };
        watch(proc.stdout as ReadableStream<Uint8Array>, lines, onLine);
        watch(proc.stderr as ReadableStream<Uint8Array>, lines, onLine);
        void proc.exited.then((code) =>
          reject(new Error(`siphon serve exited ${code}:\n${lines.join("\n")}`)),
        );
        setTimeout(() => reject(new Error(`siphon serve not ready in 30 s:\n${lines.join("\n")}`)), 30_000);
      });
      const url = await ready.catch((error) => {
        proc.kill("SIGKILL");
        throw error;
      });
      const served: ServeProcess = {
        role,
        proc,
        url,
        output: () => lines.join("\n"),
        async stop(signal = "SIGTERM") {
          processes.delete(served);
          if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
          const exited = await Promise.race([proc.exited, Bun.sleep(20_000).then(() => "timeout" as const)]);
          if (exited === "timeout") {
            proc.kill("SIGKILL");
            await proc.exited;
          }
          return proc.exitCode;
        },
      };
      processes.add(served);
      return served;
    },
    async createKey(tier) {
      const { key, info } = await createAccountWithKey(store.accounts, {
        name: "hosted",
        tier,
        kind: "live",
        now: Date.now(),
      });
      return { key, keyId: info.id, accountId: info.accountId };
    },
    async close() {
      await Promise.all([...processes].map((p) => p.stop("SIGKILL")));
      await store.close().catch(() => {});
      await Promise.all([redis.close(), pg.close()]);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A site of `pages` linked pages (/p/0 links on to the next few), recording which worker fetched each. */
export function startLinkedSite(pages: number, latencyMs = 0) {
  const byAgent = new Map<string, number>();
  const hits = new Map<string, number>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      const match = /^\/p\/(\d+)$/.exec(path);
      if (!match) return new Response("not found", { status: 404 });
      const i = Number(match[1]);
      if (i >= pages) return new Response("not found", { status: 404 });
      const agent = request.headers.get("user-agent") ?? "";
      byAgent.set(agent, (byAgent.get(agent) ?? 0) + 1);
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (latencyMs) await Bun.sleep(latencyMs);
      const links = [i + 1, i + 2, i * 2 + 1, i * 3 + 2]
        .filter((n) => n < pages)
        .map((n) => `<li><a href="/p/${n}">page ${n}</a></li>`)
        .join("");
      return new Response(
        `<!doctype html><html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1>` +
          `<p>${"Some prose for the page to count as content. ".repeat(6)}</p><ul>${links}</ul></main></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** Page requests per User-Agent. */
    byAgent,
    /** Requests per page path. */
    hits,
    stop: () => server.stop(true),
  };
}
