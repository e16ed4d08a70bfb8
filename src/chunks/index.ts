/**
 * Chunks for retrieval (RAG): a page's markdown cut into pieces of at most `maxTokens` tokens,
 * each with its heading path, a stable id and a token count from a real tokenizer (gpt-tokenizer).
 *
 * Where it cuts, in order of preference:
 * - At headings: a section is a heading and what follows up to the next heading; no chunk spans
 *   two sections. A section's first chunk starts with its heading line; later chunks of a long
 *   section do not repeat it (`headings` carries it). A heading with nothing under it before a
 *   deeper heading starts that deeper section's first chunk instead of being a chunk alone. The
 *   text before the first heading is a section with the heading path [].
 * - Between blocks: paragraphs, fenced code blocks (``` or ~~~, and indented code), tables
 *   (consecutive lines starting with `|`) and list items (an item with its continuation lines and
 *   nested items) are atomic: as many whole blocks as fit go into a chunk, joined as the page
 *   wrote them (a blank line, or one line break between the items of a tight list).
 * - Inside a block only when that block alone exceeds the limit: code at line boundaries, each
 *   piece repeating the opening and closing fence lines; a table between rows, each piece
 *   repeating the header and separator rows; a list item between its lines; a paragraph between
 *   sentences (and lines), then between words (ICU word boundaries, so Japanese and Chinese cut
 *   too), then, for a single word longer than the limit (a data URI), between characters.
 *   So no chunk exceeds `maxTokens`. A first block that fits the limit alone but not beside its
 *   section's heading line is not cut: the heading line is then a chunk of its own.
 * - Overlap (`overlap` tokens, default 0, below maxTokens / 2): a chunk after the first of a
 *   section starts with the end of the previous chunk's content, whole blocks and then whole
 *   sentences or lines of a paragraph, words only if not one sentence fits; code, tables and list
 *   items are carried whole or not at all. A chunk whose first block would not fit beside the
 *   overlap goes without it. The first chunk of a section never carries overlap.
 * - Ids: the first 16 hex digits of sha256(url + "\n" + headings.join("\0") + "\n" + text), so the
 *   same text at the same URL keeps its id across runs and an edit in one section leaves the
 *   other sections' ids alone; identical chunks within a page get "-2", "-3" in page order.
 * - Tokens: counted by gpt-tokenizer in one of `TOKENIZERS` (o200k_base unless `tokenizer` names
 *   another), each encoding loaded on its first use; "<|endoftext|>" and the like count as text.
 * - CRLF and CR line ends are read as LF, and a leading byte-order mark is dropped.
 */

export { type Chunk, chunkMarkdown } from "./chunk.ts";
export {
  type ChunkOptions,
  DEFAULT_MAX_TOKENS,
  DEFAULT_OVERLAP,
  MAX_MAX_TOKENS,
  MIN_MAX_TOKENS,
  resolveChunkOptions,
} from "./options.ts";
export {
  countTokens,
  DEFAULT_TOKENIZER,
  isTokenizerName,
  TOKENIZERS,
  type TokenizerName,
} from "./tokenizer.ts";
