import { expect, test } from "bun:test";
import { formatSrcset, parseSrcset, widestCandidate } from "./srcset.ts";

test("a srcset's URLs keep their commas; descriptors run to the next comma", () => {
  const cdn =
    "https://img.example/fetch/c_crop,h_3040,w_3040/w_50/a.png 50w, https://img.example/fetch/c_crop,w_800/a.png 800w";
  expect(parseSrcset(cdn)).toEqual([
    { url: "https://img.example/fetch/c_crop,h_3040,w_3040/w_50/a.png", descriptors: ["50w"] },
    { url: "https://img.example/fetch/c_crop,w_800/a.png", descriptors: ["800w"] },
  ]);
  expect(widestCandidate(cdn)).toBe("https://img.example/fetch/c_crop,w_800/a.png");
  // No space after a comma, a URL ending in one (no descriptors), densities, blank entries.
  expect(parseSrcset("a.jpg 1x,b.jpg 2x")).toEqual([
    { url: "a.jpg", descriptors: ["1x"] },
    { url: "b.jpg", descriptors: ["2x"] },
  ]);
  expect(parseSrcset(" , c.jpg, d.jpg 3x ,, ")).toEqual([
    { url: "c.jpg", descriptors: [] },
    { url: "d.jpg", descriptors: ["3x"] },
  ]);
  expect(widestCandidate("a.jpg 1x,b.jpg 2x")).toBe("b.jpg");
  expect(widestCandidate("only.jpg")).toBe("only.jpg");
  expect(widestCandidate("")).toBeUndefined();
  expect(formatSrcset(parseSrcset(cdn))).toBe(cdn);
});
