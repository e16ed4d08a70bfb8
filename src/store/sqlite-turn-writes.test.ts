import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "./sqlite.ts";
import { turnWriter } from "./sqlite-turn-writes.ts";
import type { NewJob } from "./types.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A WAL database file with a table of rows and a counter row every write bumps, and a second connection. */
function open() {
  const dir = mkdtempSync(join(tmpdir(), "turn-writes-"));
  dirs.push(dir);
  const path = join(dir, "t.db");
  const db = new Database(path, { create: true });
  db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA synchronous = NORMAL;");
  db.exec(
    "CREATE TABLE rows (k TEXT PRIMARY KEY, v TEXT); CREATE TABLE counter (n INTEGER); INSERT INTO counter VALUES (0);",
  );
  const put = db.transaction((k: string) => {
    db.prepare("INSERT INTO rows VALUES (?1, ?2)").run(k, "x".repeat(3000));
    db.prepare("UPDATE counter SET n = n + 1").run();
  });
  const other = new Database(path);
  other.exec("PRAGMA busy_timeout = 0;");
  const walBytes = () => statSync(`${path}-wal`).size;
  const keys = () =>
    (other.prepare("SELECT k FROM rows ORDER BY k").all() as { k: string }[]).map((r) => r.k);
  return { db, other, put, walBytes, keys };
}

describe("turnWriter", () => {
  test("writes asked in one turn share one commit: fewer WAL bytes than a commit each", async () => {
    const one = open();
    const write = turnWriter(one.db);
    const start = one.walBytes();
    await Promise.all(["a", "b", "c", "d"].map((k) => write(() => one.put(k))));
    const together = one.walBytes() - start;

    const apart = open();
    const writeApart = turnWriter(apart.db);
    const startApart = apart.walBytes();
    for (const k of ["a", "b", "c", "d"]) await writeApart(() => apart.put(k));
    const separately = apart.walBytes() - startApart;

    expect(one.keys()).toEqual(["a", "b", "c", "d"]);
    expect(apart.keys()).toEqual(["a", "b", "c", "d"]);
    // Each commit rewrites the counter's page and the table's; together they are written once.
    expect(together).toBeLessThan(separately);
  });

  test("a write is committed when its promise resolves, and not before the turn ends", async () => {
    const { db, put, keys } = open();
    const write = turnWriter(db);
    const done = write(() => put("a"));
    expect(keys()).toEqual([]);
    await done;
    expect(keys()).toEqual(["a"]);
  });

  test("writes run in the order asked and each resolves with its own value", async () => {
    const { db } = open();
    const write = turnWriter(db);
    const seen: string[] = [];
    const values = await Promise.all(
      ["x", "y", "z"].map((k, i) =>
        write(() => {
          seen.push(k);
          return i * 10;
        }),
      ),
    );
    expect(seen).toEqual(["x", "y", "z"]);
    expect(values).toEqual([0, 10, 20]);
  });

  test("a write that throws rolls back alone and rejects only its caller", async () => {
    const { db, put, keys } = open();
    const write = turnWriter(db);
    const first = write(() => put("a"));
    const failing = write(() => {
      put("b");
      put("a"); // primary key taken: this write's rows ("b" too) roll back
    });
    const last = write(() => put("c"));
    await expect(failing).rejects.toThrow(/UNIQUE/);
    await first;
    await last;
    expect(keys()).toEqual(["a", "c"]);
    expect((db.prepare("SELECT n FROM counter").get() as { n: number }).n).toBe(2);
  });

  test("a batch that cannot commit rejects every caller and writes nothing", async () => {
    const { db, other, put, keys } = open();
    db.exec("PRAGMA busy_timeout = 0;");
    const write = turnWriter(db);
    other.exec("BEGIN IMMEDIATE"); // another process holds the write lock
    const writes = [write(() => put("a")), write(() => put("b"))];
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((o) => (o.status === "rejected" ? o.reason.code : o.status))).toEqual([
      "SQLITE_BUSY",
      "SQLITE_BUSY",
    ]);
    other.exec("ROLLBACK");
    expect(keys()).toEqual([]);
    await write(() => put("c"));
    expect(keys()).toEqual(["c"]);
  });

  test("flush commits what is queued at once (as a store does before it closes)", async () => {
    const { db, put, keys } = open();
    const write = turnWriter(db);
    const done = write(() => put("a"));
    write.flush();
    expect(keys()).toEqual(["a"]);
    await done;
    write.flush(); // nothing queued: nothing happens
    expect(keys()).toEqual(["a"]);
  });
});

const crawl = (id: string): NewJob => ({
  id,
  type: "crawl",
  status: "processing",
  accountId: "acct_a",
  keyId: null,
  input: { url: "https://a.example/" },
  webhook: null,
  error: null,
  createdAt: 1,
  updatedAt: 1,
  finishedAt: null,
  expiresAt: null,
});

/** A SQLite store in a fresh folder holding one processing crawl (job_1) of one pending page. */
async function storeWithCrawl() {
  const dir = mkdtempSync(join(tmpdir(), "turn-store-"));
  dirs.push(dir);
  const path = join(dir, "siphon.db");
  const store = openSqliteStore(path);
  await store.jobs.create(crawl("job_1"), [{ url: "https://a.example/", depth: 0 }]);
  return { path, store };
}

describe("the SQLite job store's page writes", () => {
  test("a read, or a write not queued, comes after every page write asked before it", async () => {
    const { store } = await storeWithCrawl();
    const added = store.jobs.addItems("job_1", [{ url: "https://a.example/b", depth: 1 }], 10);
    const finished = store.jobs.finishItem("job_1", "https://a.example/", {
      state: "done",
      data: 1,
      credits: 1,
    });
    // Neither awaited: still queued for the end of this turn, yet the reads see them.
    expect((await store.jobs.pending("job_1", 10)).map((i) => i.url)).toEqual(["https://a.example/b"]);
    expect((await store.jobs.get("job_1"))?.completed).toBe(1);
    expect(await store.jobs.transition("job_1", ["processing"], "completed")).toBe(true);
    expect(await added).toBe(1);
    await finished;
    expect((await store.jobs.results("job_1", 0, 10)).map((i) => i.data)).toEqual([1]);
    await store.close();
  });

  test("closing the store commits the page writes still queued", async () => {
    const { path, store } = await storeWithCrawl();
    const finished = store.jobs.finishItem("job_1", "https://a.example/", {
      state: "done",
      data: 7,
      credits: 1,
    });
    await store.close();
    await finished;
    const again = openSqliteStore(path);
    expect((await again.jobs.results("job_1", 0, 10)).map((i) => i.data)).toEqual([7]);
    await again.close();
  });
});

describe("the SQLite store's charges", () => {
  test("a charge is queued with the other writes of its turn and commits with them, before its call resolves", async () => {
    const { path, store } = await storeWithCrawl();
    const other = new Database(path, { readonly: true });
    const credits = () =>
      (
        other.prepare("SELECT credits FROM usage_weeks WHERE account_id = 'acct_a'").get() as {
          credits: number;
        } | null
      )?.credits ?? 0;
    const finished = store.jobs.finishItem("job_1", "https://a.example/", {
      state: "done",
      data: 1,
      credits: 1,
    });
    const charged = store.usage.addCredits("acct_a", 0, 1);
    // Both wait for the end of the turn; a read of the job store commits what is queued, the charge with it.
    expect(credits()).toBe(0);
    expect((await store.jobs.get("job_1"))?.completed).toBe(1);
    expect(credits()).toBe(1);
    await finished;
    expect(await charged).toBe(1);
    expect(await store.usage.weeklyCredits("acct_a", 0)).toBe(1);
    other.close();
    await store.close();
  });
});
