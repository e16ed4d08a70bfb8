import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "./sqlite.ts";
import { MAX_IDLE_MS, MIN_IDLE_MS, NET_PAGES, nextPause, START_AFTER } from "./sqlite-checkpointer.ts";
import type { Store } from "./types.ts";

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(): { store: Store; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "siphon-wal-"));
  dirs.push(dir);
  const file = join(dir, "siphon.db");
  const store = openSqliteStore(file);
  stores.push(store);
  return { store, file };
}

const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

/** Threads of this process named as Bun names a Worker's (Linux: /proc/self/task/N/comm). */
function workerThreads(): Set<string> {
  const tids = new Set<string>();
  for (const task of readdirSync("/proc/self/task")) {
    try {
      if (readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim() === "Worker") tids.add(task);
    } catch {
      // the thread ended while read
    }
  }
  return tids;
}

/** Worker threads that were not there `before` (other tests' threads may end meanwhile: they do not count). */
const newThreads = (before: Set<string>) => [...workerThreads()].filter((tid) => !before.has(tid));

/** Waits (up to 2 s) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await Bun.sleep(10);
}

async function crawlJob(store: Store, pages: number): Promise<string[]> {
  const urls = Array.from({ length: pages }, (_, i) => `https://a.example/page-${i}`);
  await store.jobs.create(
    {
      id: "crawl_wal",
      type: "crawl",
      status: "processing",
      accountId: "local",
      input: {},
      webhook: null,
      createdAt: 1,
      updatedAt: 1,
      finishedAt: null,
      expiresAt: null,
      error: null,
    },
    urls.map((url) => ({ url, depth: 1 })),
  );
  return urls;
}

/** A page result of about 10 KB, as a crawl's markdown page is. */
const result = (i: number) => ({ markdown: `# Page ${i}\n\n${"Words of a crawled page. ".repeat(420)}` });

describe("checkpoints on a thread of their own", () => {
  test("the thread copies a crawl's pages into the database file while the WAL is short of the event loop's checkpoint", async () => {
    const { store, file } = open();
    const urls = await crawlJob(store, 1_500);
    const dbBytes = () => statSync(file).size;
    const before = dbBytes();
    let largest = 0;
    for (const [i, url] of urls.entries()) {
      await store.jobs.finishItem("crawl_wal", url, { state: "done", data: result(i), credits: 1 });
      largest = Math.max(largest, walBytes(file));
      // A crawl's event loop fetches and extracts between writes (1-2 ms a page); the thread runs meanwhile.
      await Bun.sleep(1);
      // 400 pages are about 6,800 WAL pages: short of NET_PAGES, so the event loop has not copied any.
      if (i === 400) expect(dbBytes() - before).toBeGreaterThan(3 * 1024 * 1024);
    }
    // 1,500 pages of 10 KB are about 75 MB of WAL frames; the WAL stays within the event loop's checkpoint.
    expect(largest).toBeLessThan((NET_PAGES + 1_000) * 4_200);
    // What was written is there, in order.
    const read = await store.jobs.results("crawl_wal", 1_490, 20);
    expect(read.map((item) => item.url)).toEqual(urls.slice(1_490));
    expect((await store.jobs.get("crawl_wal"))?.completed).toBe(1_500);
  }, 60_000);

  test("a store that writes a few pages starts no thread; the thread starts with the writes and ends with the store", async () => {
    const before = workerThreads();
    const { store } = open();
    const urls = await crawlJob(store, START_AFTER);
    for (const [i, url] of urls.slice(0, START_AFTER - 1).entries())
      await store.jobs.finishItem("crawl_wal", url, { state: "done", data: result(i), credits: 1 });
    await Bun.sleep(50);
    expect(newThreads(before)).toEqual([]);
    await store.jobs.finishItem("crawl_wal", urls[START_AFTER - 1] as string, { state: "done", credits: 1 });
    await until(() => newThreads(before).length > 0);
    const started = newThreads(before);
    expect(started).toHaveLength(1);
    stores.splice(stores.indexOf(store), 1);
    await store.close();
    await until(() => !existsSync(`/proc/self/task/${started[0]}`));
    expect(existsSync(`/proc/self/task/${started[0]}`)).toBe(false);
  });

  test("a store closed while its thread runs opens again with every page", async () => {
    const { store, file } = open();
    const urls = await crawlJob(store, START_AFTER * 2);
    for (const [i, url] of urls.entries())
      await store.jobs.finishItem("crawl_wal", url, { state: "done", data: result(i), credits: 1 });
    stores.splice(stores.indexOf(store), 1);
    await store.close();
    const again = openSqliteStore(file);
    stores.push(again);
    expect((await again.jobs.get("crawl_wal"))?.completed).toBe(START_AFTER * 2);
    const read = await again.jobs.results("crawl_wal", 0, START_AFTER * 2);
    expect(read.map((item) => item.data)).toEqual(urls.map((_, i) => result(i)));
  });
});

describe("nextPause", () => {
  const row = (log: number, checkpointed: number) => ({ busy: 0, log, checkpointed });

  test("after a pass that copied anything (or the first), the shortest pause", () => {
    expect(nextPause(row(900, 600), row(600, 600), MAX_IDLE_MS)).toBe(MIN_IDLE_MS);
    expect(nextPause(row(900, 900), row(900, 600), 400)).toBe(MIN_IDLE_MS);
    expect(nextPause(row(10, 10), null, 0)).toBe(MIN_IDLE_MS);
    // A WAL started over (fewer frames than before) is movement too.
    expect(nextPause(row(40, 40), row(900, 900), 400)).toBe(MIN_IDLE_MS);
  });

  test("nothing new, or held back by a reader: twice the last pause, up to the longest", () => {
    expect(nextPause(row(900, 900), row(900, 900), MIN_IDLE_MS)).toBe(MIN_IDLE_MS * 2);
    expect(nextPause(row(0, 0), row(0, 0), 0)).toBe(MIN_IDLE_MS);
    expect(nextPause(row(900, 600), row(900, 600), 400)).toBe(800);
    expect(nextPause(row(900, 600), row(900, 600), MAX_IDLE_MS)).toBe(MAX_IDLE_MS);
  });
});
