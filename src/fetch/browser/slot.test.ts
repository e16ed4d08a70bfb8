import { describe, expect, test } from "bun:test";
import { listenersLeft } from "./slot.ts";

/** Listener counts in REQUEST_EVENTS order: request, response, requestfinished, requestfailed, ... */
const counts = (request: number, response: number, finished: number, failed: number, load = 1) => [
  request,
  response,
  finished,
  failed,
  0,
  load,
];

describe("listenersLeft", () => {
  test("the same counts as at lend leave nothing", () => {
    expect(listenersLeft(counts(2, 0, 0, 1), counts(2, 0, 0, 1))).toBe(false);
  });

  test("puppeteer following requests still open at release is not a leftover", () => {
    expect(listenersLeft(counts(2, 0, 0, 1), counts(2, 1, 1, 2))).toBe(false);
    expect(listenersLeft(counts(2, 0, 0, 1), counts(2, 3, 3, 4))).toBe(false);
  });

  test("a handler the request left behind is", () => {
    expect(listenersLeft(counts(2, 0, 0, 1), counts(2, 1, 0, 1))).toBe(true);
    expect(listenersLeft(counts(2, 0, 0, 1), counts(3, 0, 0, 1))).toBe(true);
    expect(listenersLeft(counts(2, 0, 0, 1), counts(2, 2, 1, 2))).toBe(true);
    expect(listenersLeft(counts(2, 0, 0, 1), counts(2, 0, 0, 1, 2))).toBe(true);
  });
});
