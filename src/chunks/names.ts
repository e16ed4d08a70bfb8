/**
 * The tokenizers' names alone, for code that names one without counting (schemas, the engines):
 * importing tokenizer.ts would bring the encodings' megabytes of rank tables into its bundle.
 */

/** The encodings `chunkMarkdown` and `countTokens` can count with, newest first. */
export const TOKENIZERS = ["o200k_base", "o200k_harmony", "cl100k_base", "p50k_base", "r50k_base"] as const;

/** One of `TOKENIZERS`: o200k_base for GPT-4o and later, cl100k_base for GPT-4 and GPT-3.5, ... */
export type TokenizerName = (typeof TOKENIZERS)[number];

/** The encoding used when none is named: o200k_base, the GPT-4o family's. */
export const DEFAULT_TOKENIZER: TokenizerName = "o200k_base";
