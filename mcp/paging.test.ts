import { describe, expect, test } from "bun:test";
import { itemWindow, textWindow } from "./paging.ts";

const words = Array.from({ length: 400 }, (_, i) => `word${i}${i % 7 === 6 ? "\n" : " "}`).join("");

describe("textWindow", () => {
  test("consecutive windows join back to the whole text, each within maxLength", () => {
    const parts: string[] = [];
    let start: number | null = 0;
    while (start !== null) {
      const {
        parts: [part],
        page,
      } = textWindow([words], start, 250);
      expect(part?.length).toBeLessThanOrEqual(250);
      expect(page.totalLength).toBe(words.length);
      parts.push(part ?? "");
      start = page.nextStartIndex;
    }
    expect(parts.join("")).toBe(words);
  });

  test("a window ends after a line break or a space near its end, never inside a word", () => {
    const { parts, page } = textWindow([words], 0, 250);
    expect(parts[0]).toMatch(/[\n ]$/);
    expect(page.endIndex).toBeGreaterThanOrEqual(200);
    // No break near the end: the window is cut at maxLength.
    const solid = "x".repeat(1000);
    expect(textWindow([solid], 0, 250).page.endIndex).toBe(250);
  });

  test("every text is cut to the same range; the longest decides where the last part is", () => {
    const { parts, page } = textWindow(["short", "a".repeat(500)], 0, 300);
    expect(parts).toEqual(["short", "a".repeat(300)]);
    expect(page).toEqual({ startIndex: 0, endIndex: 300, totalLength: 500, nextStartIndex: 300 });
    expect(textWindow(["short", "a".repeat(500)], 300, 300).page.nextStartIndex).toBeNull();
  });

  test("a start past the end gives an empty last part", () => {
    expect(textWindow(["abc"], 10, 100)).toEqual({
      parts: [""],
      page: { startIndex: 3, endIndex: 3, totalLength: 3, nextStartIndex: null },
    });
  });
});

describe("itemWindow", () => {
  const items = ["aaaa", "bbbb", "cccc", "dddd"];

  test("takes items while they fit and says where the next part starts", () => {
    expect(itemWindow(items, 0, 9, (s) => s.length)).toEqual({
      items: ["aaaa", "bbbb"],
      page: { startIndex: 0, endIndex: 2, total: 4, nextStartIndex: 2 },
    });
    expect(itemWindow(items.slice(2), 2, 100, (s) => s.length)).toEqual({
      items: ["cccc", "dddd"],
      page: { startIndex: 2, endIndex: 4, total: 4, nextStartIndex: null },
    });
  });

  test("always returns one item, even one longer than the budget", () => {
    expect(itemWindow(items, 0, 1, (s) => s.length).items).toEqual(["aaaa"]);
  });

  test("counts the items a running job has not finished yet in total", () => {
    expect(itemWindow(items, 0, 100, (s) => s.length, 10).page.nextStartIndex).toBe(4);
  });
});
