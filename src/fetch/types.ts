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
}

/** Options every engine understands. */
export interface EngineFetchOptions {
  /** Extra request headers (Accept-Language from location/languages, custom headers). */
  headers?: Record<string, string>;
  /** Overall timeout in ms for this fetch, redirects included. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** One way of getting a page (simple HTTP, browser, stealth). Engines never choose each other. */
export interface FetchEngine {
  readonly name: EngineName;
  /** Fetches `url`; throws SiphonError (forbidden_url, timeout, network_error, content_too_large). */
  fetch(url: string, options?: EngineFetchOptions): Promise<FetchedPage>;
  close?(): Promise<void>;
}

export type EngineName = "simple" | "browser" | "stealth";
