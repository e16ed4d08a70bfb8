import type { Page } from "puppeteer-core";
import type { Capture, CaptureOptions } from "../types.ts";

/** Pixel size from a PNG's IHDR chunk, which always directly follows the 8-byte signature. */
function pngSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data.length < 24 || data[1] !== 0x50 || data[2] !== 0x4e || data[3] !== 0x47) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Pixel size from a JPEG's first start-of-frame marker (SOF0-SOF15 except DHT, JPG and DAC). */
function jpegSize(data: Uint8Array): { width: number; height: number } | undefined {
  if (data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** Width and height of a PNG or JPEG image, read from its header; undefined for anything else. */
export function imageDimensions(data: Uint8Array): { width: number; height: number } | undefined {
  return pngSize(data) ?? jpegSize(data);
}

/**
 * The largest side of a capture, in CSS pixels: Chromium's maximum texture size. Past it a
 * capture comes back cut or blank anyway, and the bitmap of a 200,000 px page (1 GB at
 * 1280 px wide) is what made a renderer balloon.
 */
export const MAX_CAPTURE_SIDE_PX = 16_384;
/**
 * The most pixels of one capture: a full-HD-wide page of the tallest texture (about 32 Mpx,
 * 128 MB as RGBA while it is encoded). A wider page is cut shorter to stay within it.
 */
export const MAX_CAPTURE_PIXELS = 1_920 * MAX_CAPTURE_SIDE_PX;

/** The part of a page a full-page capture takes: all of it, cut to the bounds above. */
export function fullPageClip(width: number, height: number): { width: number; height: number } {
  const w = Math.max(1, Math.min(Math.ceil(width), MAX_CAPTURE_SIDE_PX));
  const h = Math.max(1, Math.min(Math.ceil(height), MAX_CAPTURE_SIDE_PX, Math.floor(MAX_CAPTURE_PIXELS / w)));
  return { width: w, height: h };
}

/**
 * Captures the viewport or the whole page as PNG or JPEG (quality 1-100, JPEG only) and reports
 * the image's real pixel size. A full page is cut to MAX_CAPTURE_SIDE_PX a side and
 * MAX_CAPTURE_PIXELS in all, from the top left. Throws what puppeteer throws (page closed,
 * browser gone).
 */
export async function capture(page: Page, options: CaptureOptions): Promise<Capture> {
  const clip = options.fullPage
    ? fullPageClip(
        ...(await page.evaluate(() => {
          const root = document.documentElement;
          return [root.scrollWidth, root.scrollHeight] as const;
        })),
      )
    : undefined;
  const data = await page.screenshot({
    type: options.format,
    quality: options.format === "jpeg" ? (options.quality ?? 80) : undefined,
    // Beyond the viewport, without resizing it (which would lay the page out again, and
    // let a page that grows with its viewport grow).
    ...(clip ? { clip: { x: 0, y: 0, ...clip }, captureBeyondViewport: true } : {}),
  });
  const bytes = new Uint8Array(data);
  let size = imageDimensions(bytes);
  if (!size) {
    // Not expected from Chromium; fall back to what the page reports rather than inventing zeros.
    const viewport = page.viewport() ?? { width: 1280, height: 720 };
    size = { width: viewport.width, height: viewport.height };
  }
  return { data: bytes, format: options.format, width: size.width, height: size.height };
}
