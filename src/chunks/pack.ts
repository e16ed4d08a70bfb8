/**
 * One section packed into chunk texts: its heading lines, then as many whole blocks as fit the
 * token limit, joined as the page wrote them (see joined.ts). A block too long for any chunk is
 * split first (see split.ts), its pieces small enough to share a chunk with the section's heading
 * (the first block's) or with the overlap. When the first block cannot share a chunk with the
 * heading, the heading is a chunk of its own rather than the block being cut; when a block
 * cannot share one with the overlap, that chunk goes without overlap.
 *
 * Each block is counted once; a chunk's count comes from its blocks' (see tally.ts), not from
 * counting its text again.
 */

import type { Block } from "./blocks.ts";
import { joinBlocks, type PackedBlock } from "./joined.ts";
import { overlapTail } from "./overlap.ts";
import type { Section } from "./sections.ts";
import { type Piece, splitBlock } from "./split.ts";
import type { JoinCounter, Tally } from "./tally.ts";
import type { TokenCounter } from "./tokenizer.ts";

/** What packing needs: the limits, the counters, and the counted blank line between blocks. */
export interface PackSettings {
  maxTokens: number;
  overlap: number;
  count: TokenCounter;
  joins: JoinCounter;
  /** Tokens of "\n\n", the separator between two blocks. */
  separator: number;
}

/** A block's markdown, counted. */
function counted(block: Block, count: TokenCounter): PackedBlock {
  const text = block.lines.join("\n");
  return { kind: block.kind, text, tokens: count(text), tight: block.tight };
}

/** The line break or blank line that puts `block` after the one before it. */
const separatorBefore = (block: Pick<PackedBlock, "tight">) => (block.tight ? "\n" : "\n\n");

/** The section's counted blocks, those over the limit split into pieces that fit. */
function packedBlocks(
  section: Section,
  blocks: PackedBlock[],
  lead: Piece | undefined,
  settings: PackSettings,
): PackedBlock[] {
  const { maxTokens, overlap, count, separator } = settings;
  const out: PackedBlock[] = [];
  blocks.forEach((block, k) => {
    if (block.tokens <= maxTokens) {
      out.push(block);
      return;
    }
    const besideLead = k === 0 && lead ? lead.tokens + separator : 0;
    const besideOverlap = overlap ? overlap + separator : 0;
    const budget = maxTokens - Math.min(Math.floor(maxTokens / 2), Math.max(besideLead, besideOverlap));
    splitBlock(section.blocks[k]!, budget, count).forEach((piece, p) => {
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
 * Up to this many characters per token of the limit a section tried as one chunk is counted
 * whole, as it almost always fits; above it its blocks are counted first, which a section that
 * does not fit needs anyway.
 */
const LIKELY_ONE_CHUNK_CHARS_PER_TOKEN = 3;

/** A section's heading lines as one block. */
function leadBlock(lead: Block[]): Block {
  return {
    kind: "heading",
    lines: joinBlocks(lead.map((block) => ({ text: block.lines.join("\n"), tight: block.tight }))).split("\n"),
  };
}

/** The section's heading lines and its blocks, as written. */
function sectionText(section: Section): string {
  return joinBlocks(
    [...section.lead, ...section.blocks].map((block) => ({
      text: block.lines.join("\n"),
      tight: block.tight,
    })),
  );
}

/** The exact count of `parts` joined as the page wrote them (the first one's `tight` is ignored). */
function joinedTokens(parts: readonly PackedBlock[], joins: JoinCounter): number {
  let tally = joins.start(parts[0]!);
  for (let k = 1; k < parts.length; k++) tally = joins.add(tally, separatorBefore(parts[k]!), parts[k]!);
  return tally.tokens;
}

/** A section's chunks, as texts with their token counts, in order. */
export function packSection(section: Section, settings: PackSettings): Piece[] {
  const { maxTokens, overlap, count, joins, separator } = settings;
  let length = 0;
  for (const block of [...section.lead, ...section.blocks])
    for (const line of block.lines) length += line.length + 2;
  const likelyOneChunk = length <= maxTokens * LIKELY_ONE_CHUNK_CHARS_PER_TOKEN;
  if (likelyOneChunk) {
    const text = sectionText(section);
    const tokens = count(text);
    if (tokens <= maxTokens) return [{ text, tokens }];
  }
  const heading = section.lead.length ? counted(leadBlock(section.lead), count) : undefined;
  const whole = section.blocks.map((block) => counted(block, count));
  if (!likelyOneChunk && length <= maxTokens * ONE_CHUNK_CHARS_PER_TOKEN) {
    const tokens = joinedTokens(heading ? [heading, ...whole] : whole, joins);
    if (tokens <= maxTokens) return [{ text: sectionText(section), tokens }];
  }

  const out: Piece[] = [];
  let lead: Piece | undefined;
  if (heading && heading.tokens <= maxTokens) lead = heading;
  else if (heading) out.push(...splitBlock(leadBlock(section.lead), maxTokens, count));
  const blocks = packedBlocks(section, whole, lead, settings);
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
    // tallies[k] counts the prefix and blocks i to i + k.
    const first = blocks[i]!;
    const tallies = [prefix ? joins.add(joins.start(prefix), separatorBefore(first), first) : joins.start(first)];
    for (let k = i + 1; k < j; k++) {
      tallies.push(joins.add(tallies[k - i - 1]!, separatorBefore(blocks[k]!), blocks[k]!));
    }
    let tokens = tallies[j - i - 1]!.tokens;
    while (tokens > maxTokens && j - i > 1) tokens = tallies[--j - i - 1]!.tokens;
    if (tokens > maxTokens && prefix) {
      if (prefixIsLead) out.push(prefix);
      prefix = undefined;
      continue;
    }
    out.push({ text: joinBlocks([...(prefix ? [prefix] : []), ...blocks.slice(i, j)]), tokens });
    prefix = overlap ? overlapTail(blocks.slice(i, j), overlap, separator, count) : undefined;
    prefixIsLead = false;
    i = j;
  }
  if (!blocks.length && lead) out.push(lead);
  return out;
}
