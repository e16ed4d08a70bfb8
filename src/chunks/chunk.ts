/**
 * `chunkMarkdown`: a page's markdown to chunks for retrieval. The steps, in order: blocks
 * (blocks.ts), sections (sections.ts), each section packed (pack.ts), then ids (ids.ts).
 */

import { parseBlocks } from "./blocks.ts";
import { chunkId, uniqueIds } from "./ids.ts";
import { type ChunkOptions, resolveChunkOptions } from "./options.ts";
import { packSection } from "./pack.ts";
import { groupSections } from "./sections.ts";
import { Counts } from "./tally.ts";
import { INDENTS_START_PIECES, type TokenizerName, tokenCounter } from "./tokenizer.ts";

/** A piece of a page ready to embed and retrieve. */
export interface Chunk {
  /** Stable: 16 hex digits of sha256 over url, heading path and text; "-2", "-3"... on repeats within a page. */
  id: string;
  /** Markdown; a section's first chunk starts with its heading line. */
  text: string;
  /** Heading texts above the chunk, outermost first: ["Install", "On Debian"]; [] before any heading. */
  headings: string[];
  /** Position in the page, from 0. */
  index: number;
  /** Token count of `text` in `tokenizer`. */
  tokens: number;
  url: string;
  /** The page's title, "" when not given. */
  title: string;
  /** The encoding `tokens` is counted in. */
  tokenizer: TokenizerName;
}

/**
 * Splits a page's markdown into chunks of at most `maxTokens` tokens (see the module comment for
 * where it cuts). Empty or blank markdown gives []. Synchronous; the first call with an encoding
 * loads that encoding (a few hundred milliseconds), later calls reuse it.
 * @throws SiphonError invalid_request when an option is out of bounds
 */
export function chunkMarkdown(
  markdown: string,
  page: { url: string; title?: string },
  options?: ChunkOptions,
): Chunk[] {
  const { maxTokens, overlap, tokenizer } = resolveChunkOptions(options);
  const counts = new Counts(tokenCounter(tokenizer), INDENTS_START_PIECES.has(tokenizer));
  const settings = {
    maxTokens,
    overlap,
    counts,
    separator: counts.count("\n\n"),
    seen: { chars: 0, tokens: 0 },
  };
  const unmarked = markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown;
  const text = unmarked.includes("\r") ? unmarked.replace(/\r\n?/g, "\n") : unmarked;
  const chunks: Chunk[] = [];
  const title = page.title ?? "";
  for (const section of groupSections(parseBlocks(text))) {
    for (const piece of packSection(section, settings)) {
      chunks.push({
        id: chunkId(page.url, section.headings, piece.text),
        text: piece.text,
        headings: [...section.headings],
        index: chunks.length,
        tokens: piece.tokens,
        url: page.url,
        title,
        tokenizer,
      });
    }
  }
  // Identical chunks under identical headings get "-2", "-3": ids are made unique once all are known.
  const ids = uniqueIds(chunks.map((chunk) => chunk.id));
  chunks.forEach((chunk, index) => {
    chunk.id = ids[index]!;
  });
  return chunks;
}
