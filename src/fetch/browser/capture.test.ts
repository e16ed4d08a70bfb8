import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FixtureSite, startFixtureSite, TALL_HEIGHT } from "../../../test/helpers/fixture-site.ts";
import { TALL_PAGE_PX } from "../../../test/helpers/site-pages/heavy.ts";
import { loadConfig } from "../../config.ts";
import type { Capture, CaptureOptions } from "../types.ts";
import {
  capture,
  fullPageClip,
  imageDimensions,
  MAX_CAPTURE_PIXELS,
  MAX_CAPTURE_SIDE_PX,
} from "./capture.ts";
import { type BrowserPool, createBrowserPool } from "./pool.ts";

const BROWSER_TEST_MS = 30_000;
const config = loadConfig({ SIPHON_HOME: "/nonexistent/siphon-test-home" }, { disableSsrfProtection: true });
const hex = (data: Uint8Array, length: number) => Buffer.from(data.subarray(0, length)).toString("hex");

let site: FixtureSite;
let pool: BrowserPool;

beforeAll(async () => {
  site = await startFixtureSite();
  pool = createBrowserPool(config);
});
afterAll(async () => {
  await pool.close();
  await site.stop();
});

function shoot(path: string, viewport: { width: number; height: number }, options: CaptureOptions) {
  return pool.withPage(async (page): Promise<Capture> => {
    await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
    await page.goto(`${site.url}${path}`, { waitUntil: "load" });
    return capture(page, options);
  });
}

test(
  "a PNG of the viewport has the PNG signature and the viewport's size",
  async () => {
    const image = await shoot("/article", { width: 800, height: 600 }, { fullPage: false, format: "png" });
    expect(image.format).toBe("png");
    expect(hex(image.data, 8)).toBe("89504e470d0a1a0a");
    expect([image.width, image.height]).toEqual([800, 600]);
    expect(imageDimensions(image.data)).toEqual({ width: 800, height: 600 });
  },
  BROWSER_TEST_MS,
);

test(
  "a JPEG has the JPEG signature, the viewport's size, and quality changes its weight",
  async () => {
    const viewport = { width: 1024, height: 700 };
    const low = await shoot("/article", viewport, { fullPage: false, format: "jpeg", quality: 10 });
    const high = await shoot("/article", viewport, { fullPage: false, format: "jpeg", quality: 95 });
    expect(low.format).toBe("jpeg");
    expect(hex(low.data, 3)).toBe("ffd8ff");
    expect([low.width, low.height]).toEqual([1024, 700]);
    expect(imageDimensions(low.data)).toEqual({ width: 1024, height: 700 });
    expect(high.data.length).toBeGreaterThan(low.data.length);
  },
  BROWSER_TEST_MS,
);

test(
  "a full-page capture of a tall page is as tall as the page, not the viewport",
  async () => {
    const image = await shoot("/tall", { width: 800, height: 600 }, { fullPage: true, format: "png" });
    expect(image.width).toBe(800);
    expect(image.height).toBeGreaterThanOrEqual(TALL_HEIGHT);
    expect(imageDimensions(image.data)?.height).toBe(image.height);
  },
  BROWSER_TEST_MS,
);

test(
  "a full-page capture of a page taller than a texture is cut at 16384 px, from the top",
  async () => {
    const image = await shoot("/heavy/tall", { width: 1280, height: 720 }, { fullPage: true, format: "png" });
    expect(TALL_PAGE_PX).toBeGreaterThan(MAX_CAPTURE_SIDE_PX);
    expect(imageDimensions(image.data)).toEqual({ width: 1280, height: MAX_CAPTURE_SIDE_PX });
    expect([image.width, image.height]).toEqual([1280, MAX_CAPTURE_SIDE_PX]);
  },
  BROWSER_TEST_MS,
);

test("a full-page clip keeps a normal page whole and cuts a huge one to the side and area bounds", () => {
  expect(fullPageClip(1280, 5_000)).toEqual({ width: 1280, height: 5_000 });
  expect(fullPageClip(1280, 200_000)).toEqual({ width: 1280, height: MAX_CAPTURE_SIDE_PX });
  // A page 40,000 px wide and tall: a texture's side wide, cut shorter to the pixel bound.
  const wide = fullPageClip(40_000, 40_000);
  expect(wide.width).toBe(MAX_CAPTURE_SIDE_PX);
  expect(wide.width * wide.height).toBeLessThanOrEqual(MAX_CAPTURE_PIXELS);
  expect(wide.height).toBe(Math.floor(MAX_CAPTURE_PIXELS / MAX_CAPTURE_SIDE_PX));
});

test("imageDimensions refuses bytes that are neither PNG nor JPEG", () => {
  expect(imageDimensions(new TextEncoder().encode("GIF89a not an image we make"))).toBeUndefined();
});
