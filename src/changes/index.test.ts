import { describe, expect, test } from "bun:test";
import { openSqliteStore } from "../store/sqlite.ts";
import { compareSnapshots, diffMarkdown, trackChanges } from "./index.ts";

const page = (markdown: string, statusCode = 200) => ({
  accountId: "acct_a",
  url: "https://example.com/prices",
  tag: "",
  markdown,
  statusCode,
  scrapedAt: Date.UTC(2026, 0, 1),
});

describe("compareSnapshots", () => {
  test("new without a previous scrape, same up to whitespace, changed otherwise, removed on 404/410", () => {
    expect(compareSnapshots(null, page("a"), { gitDiff: true })).toEqual({
      previousScrapeAt: null,
      changeStatus: "new",
      visibility: "visible",
    });
    const before = { markdown: "# Prices\n\nTea: 3", scrapedAt: Date.UTC(2026, 0, 1) };
    const same = compareSnapshots(before, page("# Prices\n\n\nTea:  3\n"), { gitDiff: true });
    expect(same.changeStatus).toBe("same");
    expect(same.previousScrapeAt).toBe("2026-01-01T00:00:00.000Z");
    expect(same.diff).toBeUndefined();
    expect(compareSnapshots(before, page("# Prices\n\nTea: 4"), { gitDiff: false })).toEqual({
      previousScrapeAt: "2026-01-01T00:00:00.000Z",
      changeStatus: "changed",
      visibility: "visible",
    });
    expect(compareSnapshots(before, page("gone", 404), { gitDiff: true }).changeStatus).toBe("removed");
    expect(compareSnapshots(null, page("gone", 410), { gitDiff: true }).changeStatus).toBe("removed");
  });
});

describe("diffMarkdown", () => {
  test("a unified patch and its lines numbered as a patch reader numbers them", () => {
    const diff = diffMarkdown("# Prices\n\nTea: 3\nCake: 5\n", "# Prices\n\nTea: 4\nCake: 5\nPie: 6\n");
    expect(diff?.text).toContain("--- previous.md\n+++ current.md\n@@ -1,4 +1,5 @@");
    expect(diff?.text).toContain("-Tea: 3\n+Tea: 4\n Cake: 5\n+Pie: 6");
    const file = diff?.json.files[0];
    expect(file?.from).toBe("previous.md");
    expect(file?.chunks[0]?.content).toBe("@@ -1,4 +1,5 @@");
    expect(file?.chunks[0]?.changes).toEqual([
      { type: "normal", normal: true, ln1: 1, ln2: 1, content: " # Prices" },
      { type: "normal", normal: true, ln1: 2, ln2: 2, content: " " },
      { type: "del", del: true, ln: 3, content: "-Tea: 3" },
      { type: "add", add: true, ln: 3, content: "+Tea: 4" },
      { type: "normal", normal: true, ln1: 4, ln2: 4, content: " Cake: 5" },
      { type: "add", add: true, ln: 5, content: "+Pie: 6" },
    ]);
    expect(diffMarkdown("same\n", "same\n")).toBeUndefined();
  });
});

describe("trackChanges", () => {
  test("compares with the page's previous scrape and records this one for the next", async () => {
    const store = openSqliteStore(":memory:");
    try {
      const first = await trackChanges(store.snapshots, page("Tea: 3"), { gitDiff: true });
      expect(first.changeStatus).toBe("new");
      const second = await trackChanges(
        store.snapshots,
        { ...page("Tea: 4"), scrapedAt: Date.UTC(2026, 0, 2) },
        { gitDiff: true },
      );
      expect(second.changeStatus).toBe("changed");
      expect(second.previousScrapeAt).toBe("2026-01-01T00:00:00.000Z");
      expect(second.diff?.text).toContain("+Tea: 4");
      // Not recorded: the next comparison is still against "Tea: 4".
      await trackChanges(store.snapshots, page("Tea: 5"), { gitDiff: false, record: false });
      expect((await store.snapshots.latest("acct_a", "https://example.com/prices", ""))?.markdown).toBe(
        "Tea: 4",
      );
    } finally {
      await store.close();
    }
  });
});

test("a rewrite too large to search line by line is one hunk replacing the changed lines", () => {
  const before = Array.from({ length: 5000 }, (_, i) => `old line ${i}`).join("\n");
  const after = Array.from({ length: 5000 }, (_, i) => `new line ${i}`).join("\n");
  const diff = diffMarkdown(`keep\n${before}\nkeep too`, `keep\n${after}\nkeep too`);
  const chunks = diff?.json.files[0]?.chunks ?? [];
  expect(chunks).toHaveLength(1);
  const changes = chunks[0]?.changes ?? [];
  expect(changes.filter((c) => c.type === "del")).toHaveLength(5000);
  expect(changes.filter((c) => c.type === "add")).toHaveLength(5000);
  expect(changes.filter((c) => c.type === "normal").map((c) => c.content)).toEqual([" keep", " keep too"]);
  expect(diff?.text).toContain("@@ -1,5002 +1,5002 @@\n keep\n-old line 0\n");
});
