/**
 * Entry of an extraction worker thread (src/extract/pool.ts): runs
 * extractHtml on the pages it is sent and posts each result, or the error's
 * message, back with the request's id. Listed as an entrypoint of the
 * compiled binary (scripts/build.ts).
 */
import { extractHtml } from "./index.ts";
import type { ExtractRequest, ExtractResponse } from "./pool.ts";

declare const self: Worker;

self.onmessage = (event: MessageEvent<ExtractRequest>) => {
  const { id, html, url, options } = event.data;
  let response: ExtractResponse;
  try {
    response = { id, doc: extractHtml(html, url, options) };
  } catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(response);
};
