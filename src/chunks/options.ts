/**
 * Chunking options, their defaults and bounds, checked once where `chunkMarkdown` starts.
 */

import { SiphonError } from "../errors.ts";
import { DEFAULT_TOKENIZER, isTokenizerName, TOKENIZERS, type TokenizerName } from "./tokenizer.ts";

/** The most tokens a chunk holds unless `maxTokens` says otherwise. */
export const DEFAULT_MAX_TOKENS = 512;
/** The smallest `maxTokens` accepted. */
export const MIN_MAX_TOKENS = 32;
/** The largest `maxTokens` accepted. */
export const MAX_MAX_TOKENS = 8192;
/** Tokens carried from the end of a chunk into the next of the same section unless `overlap` says otherwise. */
export const DEFAULT_OVERLAP = 0;

/** How to chunk; every field is optional. */
export interface ChunkOptions {
  /** The most tokens a chunk may hold, 32 to 8192 (default 512). */
  maxTokens?: number;
  /** Tokens repeated from the end of the previous chunk of the same section, below maxTokens / 2 (default 0). */
  overlap?: number;
  /** The encoding tokens are counted in (default o200k_base). */
  tokenizer?: TokenizerName;
}

/** Options with every default filled in. */
export type ResolvedChunkOptions = Required<ChunkOptions>;

function invalid(message: string, hint: string): SiphonError {
  return new SiphonError("invalid_request", message, { hint });
}

/**
 * The options with defaults filled in.
 * @throws SiphonError invalid_request when maxTokens, overlap or tokenizer is out of bounds
 */
export function resolveChunkOptions(options: ChunkOptions = {}): ResolvedChunkOptions {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const overlap = options.overlap ?? DEFAULT_OVERLAP;
  const tokenizer = options.tokenizer ?? DEFAULT_TOKENIZER;
  if (!Number.isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS || maxTokens > MAX_MAX_TOKENS) {
    throw invalid(
      `maxTokens must be a whole number from ${MIN_MAX_TOKENS} to ${MAX_MAX_TOKENS}, not ${maxTokens}.`,
      `Leave it out for ${DEFAULT_MAX_TOKENS}.`,
    );
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= maxTokens / 2) {
    throw invalid(
      `overlap must be a whole number of tokens below half of maxTokens (${maxTokens}), not ${overlap}.`,
      `Use at most ${Math.ceil(maxTokens / 2) - 1}, or 0 for none.`,
    );
  }
  if (!isTokenizerName(tokenizer)) {
    throw invalid(`Unknown tokenizer "${String(tokenizer)}".`, `Use one of: ${TOKENIZERS.join(", ")}.`);
  }
  return { maxTokens, overlap, tokenizer };
}
