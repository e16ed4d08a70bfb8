import type { PageAction } from "../schemas/actions.ts";
import type { LivePage } from "./browser/live.ts";

/** What an engine returns: the raw answer of the target, before any extraction. */
export interface FetchedPage {
  /** Final URL after redirects. */
  url: string;
  /** HTTP status of the final answer. */
  status: number;
  /** Response headers of the final answer, lower-cased names. */
  headers: Record<string, string>;
  /** Decompressed body bytes. */
  body: Uint8Array;
  /** URLs visited before the final one, in order. */
  redirects: string[];
  /** Browser engines: the capture asked for with `EngineFetchOptions.screenshot`. */
  screenshot?: Capture;
  /** Browser engines: what page actions made (screenshots, scrapes, script returns, PDFs), when they made any. */
  actionOutputs?: ActionOutputs;
  /** Why the answer may be less than the page (a render that never looked drawn). */
  warning?: string;
}

/** What page actions made, each list in the order its actions ran. */
export interface ActionOutputs {
  /** `screenshot` actions' images. */
  screenshots: Capture[];
  /** `scrape` actions: the page's URL and HTML at that moment. */
  scrapes: { url: string; html: string }[];
  /** `executeJavascript` actions: what each script returned (JSON), and its `typeof` in the page. */
  javascriptReturns: { type: string; value: unknown }[];
  /** `pdf` actions: the page printed. */
  pdfs: Uint8Array[];
}

/** An image the browser captured. */
export interface Capture {
  data: Uint8Array;
  format: "png" | "jpeg";
  /** Pixel size of the image. */
  width: number;
  height: number;
}

/** What to capture after load, wait and actions (browser engines only). */
export interface CaptureOptions {
  fullPage: boolean;
  format: "png" | "jpeg";
  /** JPEG quality 1-100. */
  quality?: number;
}

/**
 * Options of one fetch. The simple engine reads headers, timeoutMs and signal;
 * browser engines read all of them.
 */
export interface EngineFetchOptions {
  /** Extra request headers (Accept-Language from location/languages, custom headers). */
  headers?: Record<string, string>;
  /** Overall timeout in ms for this fetch, redirects included. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** ms to wait after the load event. */
  wait?: number;
  /** Page actions, already validated (src/schemas/actions.ts), run in order after load and wait. */
  actions?: PageAction[];
  /** Cookies as "name=value", set for the target's origin before navigation. */
  cookies?: string[];
  /** Viewport in CSS pixels; default 1280x720. */
  viewport?: { width: number; height: number };
  /** ISO 3166-1 alpha-2 country: timezone, geolocation, navigator.languages. */
  location?: string;
  /** Language preferences for navigator.languages and Accept-Language. */
  languages?: string[];
  /** Capture an image of the page once load, wait and actions are done. */
  screenshot?: CaptureOptions;
  /**
   * The browsing session the fetch belongs to (a crawl or batch job's id): the browser keeps a
   * page's cookies, storage and HTTP cache for the session's next fetch instead of wiping them
   * (see BrowserPool's WithPageOptions.session). Other fetches never see them.
   */
  session?: string;
}

/** One way of getting a page (simple HTTP, browser, stealth). Engines never choose each other. */
export interface FetchEngine {
  readonly name: EngineName;
  /** Fetches `url`; throws SiphonError (forbidden_url, timeout, network_error, content_too_large). */
  fetch(url: string, options?: EngineFetchOptions): Promise<FetchedPage>;
  /** Browser engines: a page kept open across requests (a browser session), under the same guard. */
  openLive?(): Promise<LivePage>;
  close?(): Promise<void>;
}

export type EngineName = "simple" | "browser" | "stealth";
