import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "./sqlite.ts";
import type { PageSnapshot, Store } from "./types.ts";

const open: Store[] = [];
const homes: string[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const backends: [string, () => Store][] = [
  ["sqlite in memory", () => openSqliteStore(":memory:")],
  [
    "sqlite on disk",
    () => {
      const home = mkdtempSync(join(tmpdir(), "siphon-snapshots-"));
      homes.push(home);
      return openSqliteStore(join(home, "siphon.db"));
    },
  ],
];

const snap = (over: Partial<PageSnapshot>): PageSnapshot => ({
  accountId: "acct_a",
  url: "https://example.com/page",
  tag: "",
  markdown: "# Page",
  statusCode: 200,
  scrapedAt: 1000,
  ...over,
});

describe.each(backends)("SnapshotStore (%s)", (_name, openStore) => {
  const store = () => {
    const s = openStore();
    open.push(s);
    return s.snapshots;
  };

  test("latest is the newest recorded snapshot of the account, URL and tag, or null", async () => {
    const snapshots = store();
    expect(await snapshots.latest("acct_a", "https://example.com/page", "")).toBeNull();
    await snapshots.record(snap({ markdown: "one", scrapedAt: 1000 }), 10);
    await snapshots.record(snap({ markdown: "two", scrapedAt: 2000 }), 10);
    expect((await snapshots.latest("acct_a", "https://example.com/page", ""))?.markdown).toBe("two");
    // Another account, URL or tag has a history of its own.
    expect(await snapshots.latest("acct_b", "https://example.com/page", "")).toBeNull();
    expect(await snapshots.latest("acct_a", "https://example.com/other", "")).toBeNull();
    expect(await snapshots.latest("acct_a", "https://example.com/page", "weekly")).toBeNull();
  });

  test("recording keeps only the newest `keep` snapshots of a page, newest first in history", async () => {
    const snapshots = store();
    for (let i = 1; i <= 5; i++) await snapshots.record(snap({ markdown: `v${i}`, scrapedAt: i * 1000 }), 3);
    await snapshots.record(snap({ tag: "t", markdown: "tagged", scrapedAt: 9000 }), 3);
    const history = await snapshots.history("acct_a", "https://example.com/page", "", 10);
    expect(history.map((s) => s.markdown)).toEqual(["v5", "v4", "v3"]);
    expect(history[0]).toEqual(snap({ markdown: "v5", scrapedAt: 5000 }));
    expect((await snapshots.history("acct_a", "https://example.com/page", "t", 10)).length).toBe(1);
  });
});
