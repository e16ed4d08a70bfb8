/**
 * `chunkMarkdown`: a page's markdown to chunks for retrieval. The steps, in order: blocks
 * (blocks.ts), sections (sections.ts), each section packed (pack.ts), then ids (ids.ts).
 */

import { parseBlocks } from "./blocks.ts";
import { chunkId, uniqueIds } from "./ids.ts";
import { type ChunkOptions, resolveChunkOptions } from "./options.ts";
import { packSection } from "./pack.ts";
import { groupSections } from "./sections.ts";
import { JoinCounter } from "./tally.ts";
import { type TokenizerName, tokenCounter } from "./tokenizer.ts";

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
  const count = tokenCounter(tokenizer);
  const settings = { maxTokens, overlap, count, joins: new JoinCounter(count), separator: count("\n\n") };
  const unmarked = markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown;
  const text = unmarked.includes("\r") ? unmarked.replace(/\r\n?/g, "\n") : unmarked;
  const pieces = groupSections(parseBlocks(text)).flatMap((section) =>
    packSection(section, settings).map((piece) => ({ ...piece, headings: section.headings })),
  );
  const ids = uniqueIds(pieces.map((piece) => chunkId(page.url, piece.headings, piece.text)));
  return pieces.map((piece, index) => ({
    id: ids[index]!,
    text: piece.text,
    headings: [...piece.headings],
    index,
    tokens: piece.tokens,
    url: page.url,
    title: page.title ?? "",
    tokenizer,
  }));
}
