import type { CDPSession, Protocol } from "puppeteer-core";
import { SiphonError } from "../../errors.ts";
import type { PageLease } from "./slot.ts";

/** How many bytes one render may take in. */
export interface ByteLimits {
  /** Any one response: the main document, a redirect's target, each subresource (config.maxBodyBytes). */
  perResponse: number;
  /** Every response of the render together (config.browserMaxPageBytes). */
  perPage: number;
}

/** The byte count of one render; dispose() before the page serves another request. */
export interface ByteBudget {
  /** Bytes taken in so far, decoded. */
  readonly total: number;
  dispose(): void;
}

/** The applied-settings key that says the slot's session follows the network already. */
const NETWORK_KEY = "network-events";

/**
 * Nothing of the bodies is kept for this session: puppeteer's own session keeps what
 * response.buffer() reads, and Chromium would otherwise keep a second copy of the bodies in
 * the renderer for this one.
 */
const NO_BODY_BUFFER = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };

function tooLargeResponse(pageUrl: string, responseUrl: string, limit: number): SiphonError {
  const which = responseUrl && responseUrl !== pageUrl ? `${pageUrl} loaded ${responseUrl}, which` : pageUrl;
  return new SiphonError(
    "content_too_large",
    `${which} is larger than the ${limit}-byte limit; the render was stopped.`,
    { hint: "Fetch a smaller page, or raise SIPHON_MAX_BODY_BYTES on a self-hosted server." },
  );
}

function tooLargePage(pageUrl: string, limit: number): SiphonError {
  return new SiphonError(
    "content_too_large",
    `${pageUrl} and what it loaded came to more than the ${limit}-byte limit of a rendered page; the render was stopped.`,
    { hint: "Fetch a smaller page, or raise SIPHON_BROWSER_MAX_PAGE_BYTES on a self-hosted server." },
  );
}

/**
 * Counts the bytes the page's own target takes in as they arrive (CDP Network.dataReceived
 * on the slot's session) and calls `exceeded` once, as soon as one response passes
 * `limits.perResponse` (or declares a Content-Length past it) or all of them together pass
 * `limits.perPage`. The count is of decoded bytes (dataLength, not encodedDataLength):
 * Chromium inflates a gzip body itself, and the decoded bytes are what the renderer holds,
 * so a gzip bomb is stopped at the limit like an endless body. The caller stops the page.
 *
 * Cross-site frames and workers run in targets of their own whose traffic this session does
 * not see; the renderer memory ceiling (see memory.ts) bounds them.
 * @throws what CDP throws when the page is gone
 */
export async function watchBytes(
  lease: PageLease,
  pageUrl: string,
  limits: ByteLimits,
  exceeded: (error: SiphonError) => void,
): Promise<ByteBudget> {
  const { session } = lease;
  const perResponse = new Map<string, number>();
  const urls = new Map<string, string>();
  let total = 0;
  let over = false;
  const stop = (error: SiphonError) => {
    if (over) return;
    over = true;
    exceeded(error);
  };
  const onResponse = (event: Protocol.Network.ResponseReceivedEvent) => {
    urls.set(event.requestId, event.response.url);
    // Decoded bytes are never fewer than the encoded ones announced.
    const declared = Number(
      Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === "content-length")?.[1],
    );
    if (Number.isFinite(declared) && declared > limits.perResponse) {
      stop(tooLargeResponse(pageUrl, event.response.url, limits.perResponse));
    }
  };
  const onData = (event: Protocol.Network.DataReceivedEvent) => {
    const bytes = (perResponse.get(event.requestId) ?? 0) + event.dataLength;
    perResponse.set(event.requestId, bytes);
    total += event.dataLength;
    if (bytes > limits.perResponse) {
      stop(tooLargeResponse(pageUrl, urls.get(event.requestId) ?? "", limits.perResponse));
    } else if (total > limits.perPage) {
      stop(tooLargePage(pageUrl, limits.perPage));
    }
  };
  const onFinished = (event: { requestId: string }) => {
    perResponse.delete(event.requestId);
    urls.delete(event.requestId);
  };
  session.on("Network.responseReceived", onResponse);
  session.on("Network.dataReceived", onData);
  session.on("Network.loadingFinished", onFinished);
  session.on("Network.loadingFailed", onFinished);
  const dispose = () => {
    session.off("Network.responseReceived", onResponse);
    session.off("Network.dataReceived", onData);
    session.off("Network.loadingFinished", onFinished);
    session.off("Network.loadingFailed", onFinished);
  };
  try {
    await enableNetwork(lease, session);
  } catch (error) {
    dispose();
    throw error;
  }
  return {
    get total() {
      return total;
    },
    dispose,
  };
}

/** Network events on the slot's session, asked for once in the slot's life. */
async function enableNetwork(lease: PageLease, session: CDPSession): Promise<void> {
  if (lease.applied.get(NETWORK_KEY) === "on") return;
  await session.send("Network.enable", NO_BODY_BUFFER);
  lease.applied.set(NETWORK_KEY, "on");
}
