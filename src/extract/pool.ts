import type { Chunk } from "../chunks/chunk.ts";
import type { ChunkOptions } from "../chunks/options.ts";
import { type ErrorType, SiphonError } from "../errors.ts";
import { type BunWorker, threadEntry } from "../thread-entry.ts";
import { extractHtml } from "./index.ts";
import type { ExtractedDocument, ExtractOptions } from "./types.ts";

/** Turns an HTML page into a document: in this thread or in a worker thread. */
export type HtmlExtractor = (
  html: string,
  url: string,
  options: ExtractOptions,
) => Promise<ExtractedDocument>;

/** A page to extract, or (with `chunk`) markdown to split into chunks. */
export type ExtractRequest =
  | { id: number; html: string; url: string; options: ExtractOptions }
  | { id: number; chunk: ChunkTask };

/** Markdown to chunk (src/chunks), with its page and options. */
export interface ChunkTask {
  markdown: string;
  page: { url: string; title?: string };
  options?: ChunkOptions;
}

export type ExtractResponse =
  | { id: number; doc: ExtractedDocument }
  | { id: number; chunks: Chunk[] }
  | { id: number; error: string; type?: string };

/** Splits markdown into chunks: in this thread or in a worker thread. */
export type MarkdownChunker = (task: ChunkTask) => Promise<Chunk[]>;

/** Chunking in the calling thread (the tokenizer loads on first use). */
export const chunkInline: MarkdownChunker = async ({ markdown, page, options }) =>
  (await import("../chunks/index.ts")).chunkMarkdown(markdown, page, options);

/** Extraction in the calling thread. */
export const extractInline: HtmlExtractor = async (html, url, options) => extractHtml(html, url, options);

/** Worker threads that extract pages; `close` ends them (later pages run in the calling thread). */
export interface ExtractorPool {
  extract: HtmlExtractor;
  /** Chunks markdown on a thread of the pool, beside the event loop. */
  chunk: MarkdownChunker;
  close(): void;
}

interface Pending {
  resolve(value: ExtractedDocument | Chunk[]): void;
  reject(error: Error): void;
}

interface Thread {
  worker: BunWorker;
  pending: Map<number, Pending>;
}

/**
 * A pool of `size` worker threads running extractHtml, so that parsing and
 * converting pages (most of a crawl's CPU) runs beside the event loop that
 * fetches, stores and serves. Pages go to the thread with the fewest in
 * flight. A thread that dies fails its pages (the caller records the error)
 * and is replaced. Threads do not keep the process alive; `close` ends them.
 */
export function createExtractorPool(size: number): ExtractorPool {
  const threads: Thread[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (slot: number): Thread => {
    const worker = new Worker(threadEntry(import.meta.url, "src/extract/worker.ts")) as BunWorker;
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    worker.onmessage = (event: MessageEvent<ExtractResponse>) => {
      const response = event.data;
      const pending = thread.pending.get(response.id);
      if (!pending) return;
      thread.pending.delete(response.id);
      if ("doc" in response) pending.resolve(response.doc);
      else if ("chunks" in response) pending.resolve(response.chunks);
      // A refused option is the caller's error, as it would be in this thread.
      else if (response.type) pending.reject(new SiphonError(response.type as ErrorType, response.error));
      else pending.reject(new Error(response.error));
    };
    worker.onerror = (event) => {
      const error = new Error(`extraction worker failed: ${event.message}`);
      for (const pending of thread.pending.values()) pending.reject(error);
      thread.pending.clear();
      worker.terminate();
      if (!closed) threads[slot] = spawn(slot);
    };
    return thread;
  };
  for (let slot = 0; slot < size; slot++) threads.push(spawn(slot));

  /** Sends a request to the thread with the fewest in flight and resolves with its answer. */
  const send = <T>(request: ExtractRequest): Promise<T> => {
    let thread = threads[0] as Thread;
    for (const candidate of threads) if (candidate.pending.size < thread.pending.size) thread = candidate;
    return new Promise<T>((resolve, reject) => {
      thread.pending.set(request.id, { resolve: resolve as Pending["resolve"], reject });
      if (thread.pending.size === 1) thread.worker.ref();
      thread.worker.postMessage(request);
    }).finally(() => {
      if (thread.pending.size === 0) thread.worker.unref();
    });
  };
  const extract: HtmlExtractor = (html, url, options) =>
    closed ? extractInline(html, url, options) : send({ id: nextId++, html, url, options });
  const chunk: MarkdownChunker = (task) => (closed ? chunkInline(task) : send({ id: nextId++, chunk: task }));

  return {
    extract,
    chunk,
    close() {
      closed = true;
      for (const thread of threads) {
        for (const pending of thread.pending.values()) pending.reject(new Error("extraction pool closed"));
        thread.worker.terminate();
      }
      threads.length = 0;
    },
  };
}
