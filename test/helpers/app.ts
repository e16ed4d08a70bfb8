import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../server/app.ts";
import { createGuard } from "../../server/guard.ts";
import { createAccountWithKey } from "../../src/auth/keys.ts";
import { type ConfigOverrides, loadConfig } from "../../src/config.ts";
import { startJobRunner } from "../../src/jobs/index.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";
import { createEngines } from "../../src/pipeline/engines.ts";
import { openStore, type Store } from "../../src/store/index.ts";
import {
  createWatchScheduler,
  createWatchService,
  type WatchScheduler,
  type WatchService,
} from "../../src/watch/index.ts";

export interface TestApp {
  /** Sends a request to the app in process (no socket). */
  request(path: string, init?: RequestInit): Promise<Response>;
  home: string;
  store: Store;
  runner: JobRunner;
  /** The watch service the app's routes use. */
  watches: WatchService;
  /** The watch scheduler, when asked for (`{ watchScheduler: true }`): on the app's clock, ticking when a test calls tick(). */
  scheduler?: WatchScheduler;
  /** What the server logged (its `log` and unexpected errors), for tests that check no secret is in a log. */
  logs: string[];
  /** Serves the app on a real loopback socket (for SSE read by an HTTP client); returns its base URL. */
  listen(): string;
  /** Creates an account of `tier` with one key and returns the key. */
  createKey(
    tier?: string,
    kind?: "live" | "test",
  ): Promise<{ key: string; keyId: string; accountId: string }>;
  close(): Promise<void>;
}

/** A clock tests move by hand. */
export class TestClock {
  constructor(public ms = Date.UTC(2026, 10, 18, 12, 0, 0)) {}
  now = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * An in-process server on a fresh SQLite home. SSRF protection is off by
 * default because the fixture site lives on loopback; pass
 * `{ disableSsrfProtection: false }` to test the guard itself.
 */
export async function startTestApp(
  overrides: ConfigOverrides = {},
  clock?: TestClock,
  options: { watchScheduler?: boolean } = {},
): Promise<TestApp> {
  const home = mkdtempSync(join(tmpdir(), "siphon-test-"));
  const config = loadConfig({}, { home, disableSsrfProtection: true, ...overrides });
  const store = await openStore(config);
  const engines = createEngines(config);
  const now = clock?.now ?? Date.now;
  const runner = startJobRunner(config, store, engines, { now, log: () => {} });
  const logs: string[] = [];
  const watches = createWatchService({ config, store, engines, now, log: (line) => logs.push(line) });
  // Ticks only when the test says (tick()): the clock, not the timer, decides what is due.
  const scheduler = options.watchScheduler
    ? createWatchScheduler(watches, { store, now, concurrency: config.watchConcurrency, tickMs: 3_600_000 })
    : undefined;
  const app = createApp({
    config,
    store,
    engines,
    now,
    runner,
    watches,
    guard: createGuard(config, store, now),
    log: (line) => logs.push(line),
    onInternalError: (error, requestId) => logs.push(`request ${requestId} failed: ${String(error)}`),
  });
  return {
    home,
    logs,
    store,
    request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
    async createKey(tier = "free", kind = "live") {
      const { key, info } = await createAccountWithKey(store.accounts, {
        name: "test",
        tier,
        kind,
        now: now(),
      });
      return { key, keyId: info.id, accountId: info.accountId };
    },
    runner,
    watches,
    scheduler,
    listen() {
      app.listen({ port: 0, hostname: "127.0.0.1" });
      return `http://127.0.0.1:${app.server?.port}`;
    },
    async close() {
      // Elysia complains about stopping a server that never listened.
      if (app.server) await app.stop();
      await runner.close();
      await scheduler?.stop();
      await watches.close();
      await engines.close();
      await store.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Reads a format-B error body and checks its envelope. */
export async function errorOf(
  response: Response,
): Promise<{ type: string; message: string; requestId: string }> {
  const body = (await response.json()) as {
    success: boolean;
    error: { type: string; message: string };
    metadata: { requestId: string };
  };
  if (body.success !== false) throw new Error(`expected success:false, got ${JSON.stringify(body)}`);
  return { ...body.error, requestId: body.metadata.requestId };
}
