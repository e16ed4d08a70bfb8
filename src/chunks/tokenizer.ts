/**
 * Token counts from gpt-tokenizer, one BPE encoding at a time. Each encoding's rank table is a
 * few megabytes of JavaScript that takes a few hundred milliseconds to load, so an encoding is
 * required on its first use, synchronously, and kept: a process that never chunks never pays,
 * and one that only uses the default never loads the others. The requires name each module
 * literally so `bun build --compile` bundles them.
 */

import { SiphonError } from "../errors.ts";

import { DEFAULT_TOKENIZER, TOKENIZERS, type TokenizerName } from "./names.ts";

export { DEFAULT_TOKENIZER, TOKENIZERS, type TokenizerName };

/**
 * The encodings whose pieces take a line break only after white space, never spaces after it, so
 * that indentation after a line break starts a piece (see tally.ts); GPT-2's (r50k, p50k) do not.
 */
export const INDENTS_START_PIECES: ReadonlySet<TokenizerName> = new Set([
  "o200k_base",
  "o200k_harmony",
  "cl100k_base",
]);

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

/** What is used of an encoding module: its count. */
type Encoding = Pick<typeof import("gpt-tokenizer/encoding/o200k_base"), "countTokens">;

const LOADERS: Record<TokenizerName, () => Encoding> = {
  o200k_base: () =>
    require("gpt-tokenizer/encoding/o200k_base") as typeof import("gpt-tokenizer/encoding/o200k_base"),
  o200k_harmony: () =>
    require("gpt-tokenizer/encoding/o200k_harmony") as typeof import("gpt-tokenizer/encoding/o200k_harmony"),
  cl100k_base: () =>
    require("gpt-tokenizer/encoding/cl100k_base") as typeof import("gpt-tokenizer/encoding/cl100k_base"),
  p50k_base: () =>
    require("gpt-tokenizer/encoding/p50k_base") as typeof import("gpt-tokenizer/encoding/p50k_base"),
  r50k_base: () =>
    require("gpt-tokenizer/encoding/r50k_base") as typeof import("gpt-tokenizer/encoding/r50k_base"),
};

/**
 * Special-token strings such as "<|endoftext|>" are page text here, counted like any other
 * text: by default gpt-tokenizer throws on them.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

const counters = new Map<TokenizerName, TokenCounter>();

/** Texts up to this long have their counts kept: chunking counts the same few ends of texts (".", "| ") on every page. */
const SHORT = 24;
/** The most short texts kept per encoding; all are dropped when it is reached. */
const KEPT = 4096;

/** Whether `name` is one of `TOKENIZERS` (for names that come from a request). */
export function isTokenizerName(name: unknown): name is TokenizerName {
  return typeof name === "string" && (TOKENIZERS as readonly string[]).includes(name);
}

/**
 * The token counter of an encoding, loading the encoding on first use.
 * @throws SiphonError invalid_request when `name` is not one of `TOKENIZERS`
 */
export function tokenCounter(name: TokenizerName = DEFAULT_TOKENIZER): TokenCounter {
  let counter = counters.get(name);
  if (!counter) {
    if (!isTokenizerName(name)) {
      throw new SiphonError("invalid_request", `Unknown tokenizer "${String(name)}".`, {
        hint: `Use one of: ${TOKENIZERS.join(", ")}.`,
      });
    }
    const encoding = LOADERS[name]();
    const short = new Map<string, number>();
    counter = (text) => {
      if (text.length > SHORT) return encoding.countTokens(text, AS_TEXT);
      let tokens = short.get(text);
      if (tokens === undefined) {
        if (short.size >= KEPT) short.clear();
        tokens = text ? encoding.countTokens(text, AS_TEXT) : 0;
        short.set(text, tokens);
      }
      return tokens;
    };
    counters.set(name, counter);
  }
  return counter;
}

/**
 * The number of tokens `text` encodes to in `tokenizer` (o200k_base unless named).
 * @throws SiphonError invalid_request when `tokenizer` is not one of `TOKENIZERS`
 */
export function countTokens(text: string, tokenizer: TokenizerName = DEFAULT_TOKENIZER): number {
  return tokenCounter(tokenizer)(text);
}
