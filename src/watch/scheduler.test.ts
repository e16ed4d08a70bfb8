import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestClock } from "../../test/helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { loadConfig } from "../config.ts";
import { createEngines } from "../pipeline/engines.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import type { Store, WatchStore } from "../store/types.ts";
import {
  CLAIM_LEASE_MS,
  createWatchScheduler,
  createWatchService,
  type WatchScheduler,
  type WatchService,
} from "./index.ts";

const HOUR = 3_600_000;
let site: FixtureSite;
let home: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  if (home) rmSync(home, { recursive: true, force: true });
});

interface Server {
  store: Store & { watches: WatchStore };
  service: WatchService;
  scheduler: WatchScheduler;
  close(): Promise<void>;
}

/** One server process over the SQLite file in `home`: its store, watch service and scheduler, on `clock`. */
function server(clock: TestClock, concurrency = 2): Server {
  const config = loadConfig({}, { home, disableSsrfProtection: true, extractThreads: 0 });
  const store = openSqliteStore(join(home, "siphon.db"));
  const engines = createEngines(config);
  const service = createWatchService({ config, store, engines, now: clock.now });
  const scheduler = createWatchScheduler(service, { store, now: clock.now, concurrency });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await scheduler.stop();
    await service.close();
    await engines.close();
    await store.close();
  };
  cleanups.push(close);
  return { store: store as Server["store"], scheduler, service, close };
}

/** Runs ticks until nothing due is left at this moment of the clock. */
async function drain(scheduler: WatchScheduler): Promise<void> {
  while ((await scheduler.tick()) > 0) await scheduler.idle();
  await scheduler.idle();
}

const hits = (ids: string[]) => ids.reduce((n, id) => n + site.hits(`/watch/pricing/${id}`), 0);

describe("watch scheduler", () => {
  test("after a restart each overdue watch is checked once, not once per missed interval, then on its interval", async () => {
    home = mkdtempSync(join(tmpdir(), "siphon-watch-sched-"));
    const clock = new TestClock();
    const first = server(clock);
    const ids = ["r1", "r2", "r3"];
    const watches = [];
    for (const id of ids) {
      watches.push(
        await first.service.create(
          { url: `${site.url}/watch/pricing/${id}`, checkIntervalMinutes: 60 },
          "acct_a",
        ),
      );
    }
    // The baselines: due at once.
    await drain(first.scheduler);
    expect(hits(ids)).toBe(3);
    await first.close();

    // The server was down ten intervals.
    clock.advance(10 * HOUR);
    const second = server(clock);
    await drain(second.scheduler);
    expect(hits(ids)).toBe(6);
    for (const watch of watches) {
      const now = await second.store.watches.get(watch.id);
      expect(now?.checkCount).toBe(2);
      // Next from the catch-up check itself, with its jitter: not one of the missed slots.
      expect(now?.nextCheckAt).toBeGreaterThanOrEqual(clock.ms + HOUR);
      expect(now?.nextCheckAt).toBeLessThan(clock.ms + HOUR + 5 * 60_000);
    }
    // Nothing more is due until an interval has passed.
    clock.advance(30 * 60_000);
    await drain(second.scheduler);
    expect(hits(ids)).toBe(6);
    clock.advance(HOUR);
    await drain(second.scheduler);
    expect(hits(ids)).toBe(9);
  }, 30_000);

  test("a check a dead process left claimed runs again once its lease has passed; paused watches wait", async () => {
    home = mkdtempSync(join(tmpdir(), "siphon-watch-sched-"));
    const clock = new TestClock();
    const one = server(clock);
    const held = await one.service.create({ url: `${site.url}/watch/pricing/lease` }, "acct_a");
    await one.service.create({ url: `${site.url}/watch/pricing/paused`, status: "paused" }, "acct_a");
    // A process claims the watch and dies before finishing.
    expect(
      (await one.store.watches.claimDue(clock.now(), 10, { token: "dead", until: clock.ms + CLAIM_LEASE_MS }))
        .length,
    ).toBe(1);
    await one.close();

    const two = server(clock);
    await drain(two.scheduler);
    expect(site.hits("/watch/pricing/lease")).toBe(0);
    clock.advance(CLAIM_LEASE_MS);
    await drain(two.scheduler);
    expect(site.hits("/watch/pricing/lease")).toBe(1);
    expect((await two.store.watches.get(held.id))?.checkCount).toBe(1);
    clock.advance(100 * HOUR);
    await drain(two.scheduler);
    expect(site.hits("/watch/pricing/paused")).toBe(0);
  }, 30_000);

  test("no thundering herd: at most `concurrency` checks at once, two schedulers never check one watch twice", async () => {
    home = mkdtempSync(join(tmpdir(), "siphon-watch-sched-"));
    const clock = new TestClock();
    const a = server(clock, 2);
    const b = server(clock, 2);
    const ids = Array.from({ length: 8 }, (_, i) => `herd${i}`);
    for (const id of ids) await a.service.create({ url: `${site.url}/slow?ms=150&id=${id}` }, "acct_a");
    // Two processes tick at the same moment: each may start two checks.
    const [startedA, startedB] = await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    expect(startedA).toBe(2);
    expect(startedB).toBe(2);
    // Ticking again while they run starts nothing: every slot is busy.
    expect(await a.scheduler.tick()).toBe(0);
    await Promise.all([drain(a.scheduler), drain(b.scheduler)]);
    expect(site.hits("/slow")).toBe(8);
    const checks = await Promise.all(
      (await a.store.watches.list("acct_a", 100, 0)).map((w) => a.store.watches.checks(w.id, 10, 0)),
    );
    expect(checks.map((c) => c.length)).toEqual(Array(8).fill(1));
  }, 30_000);
});
