/**
 * Entry of an extraction worker thread (src/extract/pool.ts): runs
 * extractHtml on the pages it is sent (and chunkMarkdown on the markdown it is
 * sent to chunk) and posts each result, or the error's message and type, back
 * with the request's id. Listed as an entrypoint of the
 * compiled binary (scripts/build.ts).
 */
import { SiphonError } from "../errors.ts";
import { extractHtml } from "./index.ts";
import type { ExtractRequest, ExtractResponse } from "./pool.ts";

declare const self: Worker;

/** The chunker, loaded on the first chunk request: a thread that only extracts never loads a tokenizer. */
let chunker: typeof import("../chunks/chunk.ts") | undefined;

self.onmessage = async (event: MessageEvent<ExtractRequest>) => {
  const request = event.data;
  const { id } = request;
  let response: ExtractResponse;
  try {
    if ("chunk" in request) {
      chunker ??= await import("../chunks/chunk.ts");
      const { markdown, page, options } = request.chunk;
      response = { id, chunks: chunker.chunkMarkdown(markdown, page, options) };
    } else response = { id, doc: extractHtml(request.html, request.url, request.options) };
  } catch (error) {
    const type = error instanceof SiphonError ? error.type : undefined;
    response = { id, error: error instanceof Error ? error.message : String(error), type };
  }
  self.postMessage(response);
};
