/**
 * The watch store's contract: what every implementation of WatchStore (src/store/types.ts)
 * must do, through the interface alone. Run per backend beside the store contract
 * (sqlite.watch-contract.test.ts, pg.watch-contract.test.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import type {
  Store,
  WatchCheckRecord,
  WatchCheckState,
  WatchClaim,
  WatchRecord,
  WatchStore,
} from "../../src/store/types.ts";
import type { Backend } from "./contract.ts";

const watch = (over: Partial<WatchRecord> = {}): WatchRecord => ({
  id: "watch_a",
  accountId: "acct_a",
  url: "https://example.com/pricing",
  name: null,
  status: "active",
  intervalMinutes: 60,
  options: { format: "markdown" },
  webhook: null,
  lastFingerprint: null,
  baseline: null,
  lastCheckedAt: null,
  lastChangedAt: null,
  lastError: null,
  changeCount: 0,
  checkCount: 0,
  nextCheckAt: 1000,
  revision: 0,
  createdAt: 1,
  updatedAt: 1,
  ...over,
});

const check = (over: Partial<WatchCheckRecord> = {}): WatchCheckRecord => ({
  id: `chk_${crypto.randomUUID()}`,
  watchId: "watch_a",
  checkedAt: 2000,
  trigger: "scheduled",
  status: "changed",
  fingerprint: "f2",
  previousFingerprint: "f1",
  summary: "1 line added, 0 removed",
  addedText: ["Pro $39"],
  removedText: [],
  diff: "--- previous.md\n+++ current.md\n",
  statusCode: 200,
  error: null,
  ...over,
});

const state = (over: Partial<WatchCheckState> = {}): WatchCheckState => ({
  status: "active",
  lastError: null,
  fingerprint: { lastFingerprint: "f2", baseline: "Pro $39" },
  changed: true,
  checkedAt: 2000,
  intervalMinutes: 60,
  nextCheckAt: 3_602_000,
  ...over,
});

/** Defines the watch store's contract suite for one backend. */
export function watchStoreContract(name: string, backend: () => Backend): void {
  const open: Store[] = [];
  afterEach(async () => {
    for (const store of open.splice(0).reverse()) await store.close().catch(() => {});
  });

  /** Two stores on one fresh database: two processes sharing it. */
  async function openStores(): Promise<[Store, Store]> {
    const db = await backend().fresh();
    const a = await db.open();
    const b = await db.open();
    open.push(a, b);
    return [a, b];
  }

  describe(`${name}: WatchStore`, () => {
    test("create, get, list by account, count, update and delete (history with it)", async () => {
      const [store] = await openStores();
      const watches = store.watches;
      await watches.create(watch({ options: { format: "text", ignore: { patterns: ["a"] } } }));
      await watches.create(watch({ id: "watch_b", createdAt: 2 }));
      await watches.create(watch({ id: "watch_c", accountId: "acct_b" }));
      expect((await watches.get("watch_a"))?.options).toEqual({
        format: "text",
        ignore: { patterns: ["a"] },
      });
      expect((await watches.list("acct_a", 10, 0)).map((w) => w.id)).toEqual(["watch_a", "watch_b"]);
      expect((await watches.list("acct_a", 1, 1)).map((w) => w.id)).toEqual(["watch_b"]);
      expect(await watches.count("acct_a")).toBe(2);
      const updated = await watches.update(
        "watch_a",
        { status: "paused", webhook: { url: "https://h.example/x" }, name: "prices", revision: true },
        50,
      );
      expect(updated).toMatchObject({ status: "paused", name: "prices", revision: 1, updatedAt: 50 });
      expect(updated?.webhook).toEqual({ url: "https://h.example/x" });
      expect((await watches.update("watch_a", { webhook: null }, 60))?.webhook).toBeNull();
      expect(await watches.update("watch_none", { name: "x" }, 60)).toBeNull();
      const token = "t1";
      await watches.update("watch_a", { status: "active" }, 61);
      expect(await watches.claim("watch_a", 1000, { token, until: 5000 })).not.toBeNull();
      expect(await watches.finishCheck("watch_a", token, 1, state(), check(), 10)).toBe(true);
      expect(await watches.delete("watch_a")).toBe(true);
      expect(await watches.delete("watch_a")).toBe(false);
      expect(await watches.get("watch_a")).toBeNull();
      expect(await watches.checks("watch_a", 10, 0)).toEqual([]);
    });

    test("a claim is exclusive until released, finished or past its lease, across connections", async () => {
      const [a, b] = await openStores();
      await a.watches.create(watch());
      const first = await a.watches.claim("watch_a", 1000, { token: "a", until: 5000 });
      expect(first?.id).toBe("watch_a");
      // The other process (or a manual check) cannot take it while the lease holds.
      expect(await b.watches.claim("watch_a", 4999, { token: "b", until: 9000 })).toBeNull();
      expect(await b.watches.claimDue(4999, 10, { token: "b", until: 9000 })).toEqual([]);
      // Releasing with the wrong token does nothing; with the right one frees it.
      await b.watches.release("watch_a", "b");
      expect(await b.watches.claim("watch_a", 2000, { token: "b", until: 9000 })).toBeNull();
      await a.watches.release("watch_a", "a");
      expect(await b.watches.claim("watch_a", 2000, { token: "b", until: 3000 })).not.toBeNull();
      // A claim whose holder died is free once its lease has passed.
      expect(await a.watches.claim("watch_a", 3000, { token: "a2", until: 9000 })).not.toBeNull();
    });

    test("claimDue takes due, unpaused, unclaimed watches, most overdue first, at most `limit`", async () => {
      const [a, b] = await openStores();
      await a.watches.create(watch({ id: "watch_late", nextCheckAt: 100 }));
      await a.watches.create(watch({ id: "watch_later", nextCheckAt: 50 }));
      await a.watches.create(watch({ id: "watch_future", nextCheckAt: 5000 }));
      await a.watches.create(watch({ id: "watch_paused", nextCheckAt: 10, status: "paused" }));
      await a.watches.create(watch({ id: "watch_error", nextCheckAt: 900, status: "error" }));
      const firstTwo = await a.watches.claimDue(1000, 2, { token: "a", until: 2000 });
      expect(firstTwo.map((w) => w.id)).toEqual(["watch_later", "watch_late"]);
      const rest = await b.watches.claimDue(1000, 10, { token: "b", until: 2000 });
      expect(rest.map((w) => w.id)).toEqual(["watch_error"]);
      expect(await a.watches.claimDue(1000, 10, { token: "c", until: 2000 })).toEqual([]);
    });

    test("concurrent claimDue calls never hand one watch to two callers", async () => {
      const [a, b] = await openStores();
      for (let i = 0; i < 30; i++) await a.watches.create(watch({ id: `watch_${i}`, nextCheckAt: i }));
      const takes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).watches.claimDue(1000, 4, { token: `t${i}`, until: 9000 }),
        ),
      );
      const ids = takes.flat().map((w) => w.id);
      expect(ids.length).toBe(30);
      expect(new Set(ids).size).toBe(30);
    });

    test("two workers claiming due watches in a loop at once each take other watches, and together all", async () => {
      const [a, b] = await openStores();
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          a.watches.create(watch({ id: `watch_${i}`, nextCheckAt: i % 7 })),
        ),
      );
      /** A worker's scheduler: claims a few at a time, several claims in flight, until none is due. */
      const worker = async (watches: WatchStore, name: string) => {
        const taken: string[] = [];
        const loop = async (lane: number) => {
          for (let round = 0; ; round++) {
            const claim: WatchClaim = { token: `${name}-${lane}-${round}`, until: 9000 };
            const due = await watches.claimDue(1000, 3, claim);
            if (!due.length) return;
            taken.push(...due.map((w) => w.id));
          }
        };
        await Promise.all([0, 1, 2].map(loop));
        return taken;
      };
      const [byA, byB] = await Promise.all([worker(a.watches, "a"), worker(b.watches, "b")]);
      const all = [...byA, ...byB];
      expect(all.length).toBe(60);
      expect(new Set(all).size).toBe(60);
    });

    test("page content with a NUL character is kept as it was (baseline, diff); summaries and errors are kept", async () => {
      const [store] = await openStores();
      const watches = store.watches;
      const content = "line one\u0000\nline two";
      await watches.create(watch({ name: "a\u0000b", baseline: content, lastFingerprint: "f1" }));
      expect((await watches.get("watch_a"))?.baseline).toBe(content);
      await watches.claim("watch_a", 1000, { token: "t", until: 9000 });
      const summary = '1 line added: "x\u0000y"';
      const recorded = await watches.finishCheck(
        "watch_a",
        "t",
        0,
        state({ fingerprint: { lastFingerprint: "f2", baseline: `${content}\u0000` } }),
        check({ id: "chk_nul", summary, addedText: ["x\u0000y"], diff: "+x\u0000y\n", error: "e\u0000" }),
        10,
      );
      expect(recorded).toBe(true);
      expect((await watches.get("watch_a"))?.baseline).toBe(`${content}\u0000`);
      const [kept] = await watches.checks("watch_a", 1, 0);
      expect(kept).toMatchObject({ id: "chk_nul", addedText: ["x\u0000y"], diff: "+x\u0000y\n" });
      // A backend may show a NUL in text meant for people as U+FFFD, as an HTML parser reads it.
      const asRead = (text: string | null | undefined) => text?.replaceAll("\uFFFD", "\u0000");
      expect(asRead(kept?.summary)).toBe(summary);
      expect(asRead(kept?.error)).toBe("e\u0000");
      expect(asRead((await watches.get("watch_a"))?.name)).toBe("a\u0000b");
    });

    test("finishCheck records state and history under the claim, keeping the newest `keep`", async () => {
      const [store] = await openStores();
      const watches = store.watches;
      await watches.create(watch());
      for (let i = 1; i <= 4; i++) {
        await watches.claim("watch_a", 1000 * i, { token: `t${i}`, until: 1000 * i + 500 });
        const done = await watches.finishCheck(
          "watch_a",
          `t${i}`,
          0,
          state({ checkedAt: 1000 * i, changed: i % 2 === 0 }),
          check({ id: `chk_${i}`, checkedAt: 1000 * i }),
          3,
        );
        expect(done).toBe(true);
      }
      const after = await watches.get("watch_a");
      expect(after).toMatchObject({
        checkCount: 4,
        changeCount: 2,
        lastCheckedAt: 4000,
        lastChangedAt: 4000,
        lastFingerprint: "f2",
        baseline: "Pro $39",
        nextCheckAt: 3_602_000,
      });
      const history = await watches.checks("watch_a", 10, 0);
      expect(history.map((c) => c.id)).toEqual(["chk_4", "chk_3", "chk_2"]);
      expect(history[0]?.addedText).toEqual(["Pro $39"]);
      expect((await watches.checks("watch_a", 1, 1)).map((c) => c.id)).toEqual(["chk_3"]);
      expect((await watches.getCheck("watch_a", "chk_3"))?.checkedAt).toBe(3000);
      expect(await watches.getCheck("watch_b", "chk_3")).toBeNull();
      // The claim was released by finishing: the watch can be claimed again at once.
      expect(await watches.claim("watch_a", 4001, { token: "t5", until: 9000 })).not.toBeNull();
    });

    test("finishCheck records nothing without the claim or at an old revision, and keeps a pause and a new interval", async () => {
      const [store] = await openStores();
      const watches = store.watches;
      await watches.create(watch());
      await watches.claim("watch_a", 1000, { token: "t", until: 9000 });
      expect(await watches.finishCheck("watch_a", "other", 0, state(), check(), 10)).toBe(false);
      // The page or options changed while the check ran: it is not recorded, and the claim is given back.
      await watches.update("watch_a", { url: "https://example.com/new", revision: true }, 1500);
      expect(await watches.finishCheck("watch_a", "t", 0, state(), check(), 10)).toBe(false);
      expect(await watches.checks("watch_a", 10, 0)).toEqual([]);
      expect(await watches.claim("watch_a", 1600, { token: "t2", until: 9000 })).not.toBeNull();
      // Paused and given a new interval while a check ran: both stay.
      await watches.update("watch_a", { status: "paused", intervalMinutes: 30, nextCheckAt: 77 }, 1700);
      expect(await watches.finishCheck("watch_a", "t2", 1, state({ status: "error" }), check(), 10)).toBe(
        true,
      );
      expect(await watches.get("watch_a")).toMatchObject({
        status: "paused",
        nextCheckAt: 77,
        intervalMinutes: 30,
      });
      // A failed check leaves the fingerprint and baseline as they were.
      await watches.update("watch_a", { status: "active" }, 1800);
      await watches.claim("watch_a", 1800, { token: "t3", until: 9000 });
      const failed = state({
        status: "error",
        lastError: "HTTP 503",
        fingerprint: undefined,
        changed: false,
        intervalMinutes: 30,
      });
      expect(await watches.finishCheck("watch_a", "t3", 1, failed, check({ status: "error" }), 10)).toBe(
        true,
      );
      expect(await watches.get("watch_a")).toMatchObject({
        status: "error",
        lastError: "HTTP 503",
        lastFingerprint: "f2",
        baseline: "Pro $39",
        nextCheckAt: 3_602_000,
      });
    });
  });
}
