import { describe, expect, test } from "bun:test";
import { applyPatch } from "diff";
import { fingerprint } from "../pipeline/result.ts";
import { MAX_STORED_DIFF_CHARS } from "../schemas/watch.ts";
import { compareContent } from "./compare.ts";
import { dueFrom, nextCheckAt } from "./schedule.ts";

const page = (content: string) => ({ content, fingerprint: fingerprint(content) });

describe("compareContent", () => {
  test("no previous check: the baseline, nothing changed", () => {
    expect(compareContent(null, page("# Pricing\nPro $29"))).toEqual({
      status: "baseline",
      changed: false,
      summary: "Baseline recorded: 2 lines of content",
      addedText: [],
      removedText: [],
      diff: null,
    });
  });

  test("the same fingerprint is the same content", () => {
    const same = compareContent(page("a\nb"), page("a\nb"));
    expect(same).toMatchObject({ status: "same", changed: false, diff: null, addedText: [] });
  });

  test("a change: the lines added and removed, a summary quoting them and the unified diff", () => {
    const before = page("# Pricing\nStarter $9\nPro $29\nTeams $99");
    const after = page("# Pricing\nStarter $9\nPro $39\nTeams $99\nEnterprise: call us");
    const changed = compareContent(before, after);
    expect(changed.status).toBe("changed");
    expect(changed.changed).toBe(true);
    expect(changed.addedText).toEqual(["Pro $39", "Enterprise: call us"]);
    expect(changed.removedText).toEqual(["Pro $29"]);
    expect(changed.summary).toBe('2 lines added, 1 removed: "Pro $29" -> "Pro $39"');
    expect(changed.diff).toStartWith(
      "===================================================================\n--- previous.md\n+++ current.md\n",
    );
    expect(changed.diff).toContain(
      "@@ -1,4 +1,5 @@\n # Pricing\n Starter $9\n-Pro $29\n+Pro $39\n Teams $99\n+Enterprise: call us\n",
    );
    expect(changed.diff).not.toContain("No newline");
    expect(compareContent(after, before).summary).toBe('1 line added, 2 removed: "Pro $39" -> "Pro $29"');
    expect(compareContent(page("a\nb"), page("a")).summary).toBe('0 lines added, 1 removed: "b" is gone');
  });

  test("a rewrite too large to search is one hunk replacing the changed lines, and applies as a patch", () => {
    const rows = (prefix: string) => Array.from({ length: 1000 }, (_, i) => `${prefix} row ${i}`);
    const frame = (middle: string[]) => [
      "# Catalogue",
      "a",
      "b",
      "c",
      "intro",
      ...middle,
      "footer",
      "x",
      "y",
      "end",
    ];
    const before = frame(rows("old")).join("\n");
    const after = frame(rows("new")).join("\n");
    const started = performance.now();
    const changed = compareContent(page(before), page(after));
    expect(performance.now() - started).toBeLessThan(2000);
    // Three lines of context each side, numbered from 1.
    expect(changed.diff).toContain("\n@@ -3,1006 +3,1006 @@\n b\n c\n intro\n-old row 0\n");
    expect(changed.diff).toEndWith("+new row 999\n footer\n x\n y\n");
    expect(changed.summary).toBe('1000 lines added, 1000 removed: "old row 0" -> "new row 0"');
    expect(applyPatch(`${before}\n`, changed.diff as string)).toBe(`${after}\n`);
    // A small change is searched line by line and applies too.
    const small = compareContent(page("a\nb\nc"), page("a\nB\nc\nd"));
    expect(applyPatch("a\nb\nc\n", small.diff as string)).toBe("a\nB\nc\nd\n");
    // Everything new, from nothing: "-0,0".
    expect(compareContent(page(""), page("x\ny")).diff).toContain("@@ -0,0 +1,2 @@\n+x\n+y\n");
  });

  test("a huge change keeps at most 200 lines a side and a diff cut where it says so", () => {
    const many = (prefix: string) => Array.from({ length: 5000 }, (_, i) => `${prefix} line ${i}`).join("\n");
    const changed = compareContent(page(many("old")), page(many("new")));
    expect(changed.addedText.length).toBe(200);
    expect(changed.removedText.length).toBe(200);
    expect(changed.diff?.length).toBeLessThan(MAX_STORED_DIFF_CHARS + 100);
    expect(changed.diff).toEndWith(`… diff cut at ${MAX_STORED_DIFF_CHARS} characters\n`);
  });
});

describe("schedule", () => {
  const HOUR = 3_600_000;

  test("the next check is an interval after this one, plus a jitter of at most 10% (5 min cap), stable per watch and check", () => {
    const at = 1_000_000;
    const times = Array.from({ length: 50 }, (_, i) =>
      nextCheckAt({ id: `watch_${i}`, checkCount: 0 }, 60, at),
    );
    for (const t of times) {
      expect(t).toBeGreaterThanOrEqual(at + HOUR);
      expect(t).toBeLessThan(at + HOUR + 5 * 60_000);
    }
    // Watches checked together spread out rather than staying in step.
    expect(new Set(times).size).toBeGreaterThan(45);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(3 * 60_000);
    expect(nextCheckAt({ id: "watch_1", checkCount: 3 }, 60, at)).toBe(
      nextCheckAt({ id: "watch_1", checkCount: 3 }, 60, at),
    );
    const short = nextCheckAt({ id: "watch_1", checkCount: 0 }, 10, at);
    expect(short - at).toBeLessThan(10 * 60_000 * 1.1);
  });

  test("a watch that (re)starts is due at once when never checked or its interval has passed", () => {
    expect(dueFrom(null, 60, 5000)).toBe(5000);
    expect(dueFrom(0, 60, 10 * HOUR)).toBe(10 * HOUR);
    expect(dueFrom(9 * HOUR, 60, 9.5 * HOUR)).toBe(10 * HOUR);
  });
});
