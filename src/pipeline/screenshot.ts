import { SiphonError } from "../errors.ts";
import type { Capture } from "../fetch/types.ts";
import { parseTargetUrl } from "../fetch/url.ts";
import { parseActions } from "../schemas/actions.ts";
import type { ScreenshotData, ScreenshotInput } from "../schemas/screenshot.ts";
import type { FetchDeps } from "./fetch-page.ts";

export interface ScreenshotOutcome {
  data: ScreenshotData;
  /** The raw image, for callers that write a file. */
  image: Capture;
}

/**
 * Renders a URL in the browser (stealth when asked), runs the actions (a script's return value
 * is not kept; pdf and scrape actions are refused, having nothing to change), waits, and captures the viewport or the full page as PNG or JPEG (a full page cut
 * at 16384 px a side, see capture.ts). Throws SiphonError (invalid_request for
 * a bad action, forbidden_url, timeout, network_error, browser_unavailable,
 * content_too_large past the browser's byte or memory limits).
 */
export async function takeScreenshot(input: ScreenshotInput, deps: FetchDeps): Promise<ScreenshotOutcome> {
  const actions = parseActions(input.actions);
  for (const [index, action] of actions.entries()) {
    if (action.type === "pdf" || action.type === "scrape") {
      throw new SiphonError(
        "invalid_request",
        `actions[${index}] (${action.type}): a screenshot returns its image alone, not what a ${action.type} action makes`,
        {
          hint: "Ask POST /v1/fetch (siphon fetch) for the page with these actions: it returns actions.pdfs and actions.scrapes.",
        },
      );
    }
  }
  const target = parseTargetUrl(input.url);
  const format = input.format === "png" ? "png" : "jpeg";
  if (input.quality !== undefined && format !== "jpeg") {
    throw new SiphonError(
      "invalid_request",
      "quality applies to JPEG only; set format to jpeg or drop quality",
    );
  }
  const engine = await deps.engines.get(input.stealth ? "stealth" : "browser");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  const page = await engine.fetch(target.href, {
    headers,
    cookies: input.cookies,
    actions,
    wait: input.waitFor,
    timeoutMs: input.timeout,
    signal: deps.signal,
    viewport: { width: input.width, height: input.height },
    screenshot: { fullPage: input.fullPage, format, quality: input.quality },
  });
  const image = page.screenshot;
  if (!image) throw new SiphonError("internal_error", "The browser returned no image");
  const mime = image.format === "png" ? "image/png" : "image/jpeg";
  return {
    image,
    data: {
      url: target.href,
      screenshot: `data:${mime};base64,${Buffer.from(image.data).toString("base64")}`,
      metadata: {
        sourceURL: page.url,
        format: image.format,
        width: image.width,
        height: image.height,
        fullPage: input.fullPage,
      },
    },
  };
}
