import { SiphonError } from "../src/errors.ts";
import { CHUNK_TOKENIZERS } from "../src/schemas/formats.ts";

/**
 * --chunks and its options, shared by fetch, crawl and batch: the chunks format
 * ({type: "chunks", maxTokens, overlap, tokenizer}) added to the request's formats.
 */
export const chunkArgs = {
  chunks: {
    type: "boolean",
    description:
      "Split each page's markdown into chunks for retrieval: JSON Lines, one chunk a line (with --json, in each result's chunks; with -o DIR, DIR/chunks.jsonl)",
  },
  "chunk-tokens": {
    type: "string",
    description: "With --chunks: most tokens a chunk holds, 32-8192 (default 512)",
    valueHint: "n",
  },
  "chunk-overlap": {
    type: "string",
    description: "With --chunks: tokens repeated from the end of the previous chunk of a section (default 0)",
    valueHint: "n",
  },
  tokenizer: {
    type: "string",
    description: `With --chunks: the encoding tokens are counted in: ${CHUNK_TOKENIZERS.join(", ")} (default o200k_base)`,
    valueHint: "name",
  },
} as const;

/** A whole number flag's value, kept as text when it is not one (the schema then names it). */
const integer = (text: unknown) =>
  typeof text === "string" && /^\d+$/.test(text.trim()) ? Number(text) : text;

/**
 * The chunks format entry the flags ask for, or undefined without --chunks; an option flag without
 * --chunks is refused. Throws SiphonError invalid_request.
 */
export function chunkEntry(a: Record<string, unknown>): Record<string, unknown> | undefined {
  const given = ["chunk-tokens", "chunk-overlap", "tokenizer"].filter((flag) => a[flag] !== undefined);
  if (!a.chunks) {
    if (given.length) {
      throw new SiphonError("invalid_request", `--${given[0]} needs --chunks`, {
        hint: "Add --chunks to split the pages into chunks.",
      });
    }
    return undefined;
  }
  const entry: Record<string, unknown> = { type: "chunks" };
  if (a["chunk-tokens"] !== undefined) entry.maxTokens = integer(a["chunk-tokens"]);
  if (a["chunk-overlap"] !== undefined) entry.overlap = integer(a["chunk-overlap"]);
  if (a.tokenizer !== undefined) entry.tokenizer = a.tokenizer;
  return entry;
}

/** `formats` with the chunks entry added (not a content format: `content` stays as it was). */
export function withChunks(formats: unknown, entry: Record<string, unknown>): unknown {
  const list = Array.isArray(formats) ? [...formats] : [];
  return [...list, entry];
}

/** A result's chunks as JSON Lines, one chunk a line. */
export function chunkLines(result: { chunks?: unknown[] }): string {
  return (result.chunks ?? []).map((chunk) => `${JSON.stringify(chunk)}\n`).join("");
}
