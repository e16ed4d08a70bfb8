/**
 * One section packed into chunk texts: its heading lines, then as many whole blocks as fit the
 * token limit, joined as the page wrote them (see joined.ts). A block too long for any chunk is
 * split first (see split.ts), its pieces small enough to share a chunk with the section's heading
 * (the first block's) or with the overlap. When the first block cannot share a chunk with the
 * heading, the heading is a chunk of its own rather than the block being cut; when a block
 * cannot share one with the overlap, that chunk goes without overlap.
 */

import { joinBlocks, type PackedBlock } from "./joined.ts";
import { overlapTail } from "./overlap.ts";
import type { Section } from "./sections.ts";
import { type Piece, splitBlock } from "./split.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** What packing needs: the limits, the counter, and the counted blank line between blocks. */
export interface PackSettings {
  maxTokens: number;
  overlap: number;
  count: TokenCounter;
  /** Tokens of "\n\n", the separator between two blocks. */
  separator: number;
}

/** The section's blocks counted, those over the limit split into pieces that fit. */
function packedBlocks(section: Section, lead: Piece | undefined, settings: PackSettings): PackedBlock[] {
  const { maxTokens, overlap, count, separator } = settings;
  const out: PackedBlock[] = [];
  section.blocks.forEach((block, k) => {
    const text = block.lines.join("\n");
    const tokens = count(text);
    if (tokens <= maxTokens) {
      out.push({ kind: block.kind, text, tokens, tight: block.tight });
      return;
    }
    const besideLead = k === 0 && lead ? lead.tokens + separator : 0;
    const besideOverlap = overlap ? overlap + separator : 0;
    const budget = maxTokens - Math.min(Math.floor(maxTokens / 2), Math.max(besideLead, besideOverlap));
    splitBlock(block, budget, count).forEach((piece, p) => {
      out.push({ kind: block.kind, ...piece, tight: p === 0 && block.tight });
    });
  });
  return out;
}

/**
 * Above this many characters per token of the limit a section is not tried as one chunk: so few
 * characters per token are rare (English averages about 4), so the whole-section count would
 * only be wasted.
 */
const ONE_CHUNK_CHARS_PER_TOKEN = 6;

/**
 * The section as one chunk when it fits, counted once; most sections of a page do, and this spares
 * them a count per block and a recount of the chunk.
 */
function wholeSection(section: Section, maxTokens: number, count: TokenCounter): Piece | undefined {
  let length = 0;
  for (const block of [...section.lead, ...section.blocks])
    for (const line of block.lines) length += line.length + 2;
  if (length > maxTokens * ONE_CHUNK_CHARS_PER_TOKEN) return undefined;
  const text = joinBlocks(
    [...section.lead, ...section.blocks].map((block) => ({
      text: block.lines.join("\n"),
      tight: block.tight,
    })),
  );
  const tokens = count(text);
  return tokens <= maxTokens ? { text, tokens } : undefined;
}

/** A section's chunks, as texts with their token counts, in order. */
export function packSection(section: Section, settings: PackSettings): Piece[] {
  const { maxTokens, overlap, count, separator } = settings;
  const whole = wholeSection(section, maxTokens, count);
  if (whole) return [whole];
  const out: Piece[] = [];
  let lead: Piece | undefined;
  if (section.lead.length) {
    const text = joinBlocks(
      section.lead.map((block) => ({ text: block.lines.join("\n"), tight: block.tight })),
    );
    const tokens = count(text);
    if (tokens <= maxTokens) lead = { text, tokens };
    else out.push(...splitBlock({ kind: "heading", lines: text.split("\n") }, maxTokens, count));
  }

  const blocks = packedBlocks(section, lead, settings);
  let prefix = lead;
  let prefixIsLead = lead !== undefined;
  let i = 0;
  while (i < blocks.length) {
    if (prefix && prefix.tokens + separator + blocks[i]!.tokens > maxTokens) {
      if (prefixIsLead) out.push(prefix);
      prefix = undefined;
    }
    let j = i + 1;
    let estimate = (prefix ? prefix.tokens + separator : 0) + blocks[i]!.tokens;
    while (j < blocks.length && estimate + separator + blocks[j]!.tokens <= maxTokens) {
      estimate += separator + blocks[j++]!.tokens;
    }
    const render = (end: number) => joinBlocks([...(prefix ? [prefix] : []), ...blocks.slice(i, end)]);
    let text = render(j);
    let tokens = !prefix && j === i + 1 ? blocks[i]!.tokens : count(text);
    while (tokens > maxTokens && j - i > 1) {
      text = render(--j);
      tokens = count(text);
    }
    if (tokens > maxTokens && prefix) {
      if (prefixIsLead) out.push(prefix);
      prefix = undefined;
      continue;
    }
    out.push({ text, tokens });
    prefix = overlap ? overlapTail(blocks.slice(i, j), overlap, separator, count) : undefined;
    prefixIsLead = false;
    i = j;
  }
  if (!blocks.length && lead) out.push(lead);
  return out;
}
