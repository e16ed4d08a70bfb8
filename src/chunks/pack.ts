/**
 * One section packed into chunk texts: its heading lines, then as many whole blocks as fit the
 * token limit, joined as the page wrote them (see joined.ts). A block too long for any chunk is
 * split first (see split.ts), its pieces small enough to share a chunk with the section's heading
 * (the first block's) or with the overlap. When the first block cannot share a chunk with the
 * heading, the heading is a chunk of its own rather than the block being cut; when a block
 * cannot share one with the overlap, that chunk goes without overlap.
 *
 * Counting is what costs, so each block is counted once and a chunk's count is taken from its
 * blocks' (see tally.ts), not from counting its text again; a block likely to be split is
 * counted by the sentences or lines it would be split into, which the split then reuses.
 */

import type { Block } from "./blocks.ts";
import { joinBlocks, type PackedBlock } from "./joined.ts";
import { overlapTail } from "./overlap.ts";
import type { Section } from "./sections.ts";
import { lineUnits, sentenceUnits } from "./segments.ts";
import { type Piece, splitBlock } from "./split.ts";
import type { Counts } from "./tally.ts";

/** What packing needs: the limits, the page's counts, and the counted blank line between blocks. */
export interface PackSettings {
  maxTokens: number;
  overlap: number;
  counts: Counts;
  /** Tokens of "\n\n", the separator between two blocks. */
  separator: number;
  /** Characters and tokens of the page's blocks counted so far. */
  seen: { chars: number; tokens: number };
}

/**
 * Characters per token assumed until a page's own blocks have been counted: English prose runs
 * about 4 in the encodings here, code a little less.
 */
const ASSUMED_CHARS_PER_TOKEN = 4;

/**
 * A block whose length, at the page's characters per token so far, makes more than this many
 * times the limit is likely to be split, so it is counted by its sentences or lines. Above 1:
 * counting a block so costs about a fifth more than counting it whole, and a block estimated near
 * the limit fits as often as not; counting a block whole and then split costs twice.
 */
const LIKELY_SPLIT = 1.25;

/** A block's markdown, counted. */
function counted(block: Block, settings: PackSettings): PackedBlock {
  const { maxTokens, counts, seen } = settings;
  const text = block.lines.join("\n");
  const charsPerToken = seen.tokens ? seen.chars / seen.tokens : ASSUMED_CHARS_PER_TOKEN;
  let tokens: number;
  let units: Piece[] | undefined;
  if (text.length <= maxTokens * LIKELY_SPLIT * charsPerToken) tokens = counts.count(text);
  else {
    const cut = block.kind === "paragraph" || block.kind === "heading" ? sentenceUnits : lineUnits;
    units = cut(text, maxTokens).map((unit) => ({ text: unit, tokens: counts.count(unit) }));
    tokens = counts.joined(units);
  }
  seen.chars += text.length;
  seen.tokens += tokens;
  return { kind: block.kind, text, tokens, tight: block.tight, units };
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
  const { maxTokens, overlap, counts, separator } = settings;
  const out: PackedBlock[] = [];
  blocks.forEach((block, k) => {
    if (block.tokens <= maxTokens) {
      out.push(block);
      return;
    }
    const besideLead = k === 0 && lead ? lead.tokens + separator : 0;
    const besideOverlap = overlap ? overlap + separator : 0;
    const budget = maxTokens - Math.min(Math.floor(maxTokens / 2), Math.max(besideLead, besideOverlap));
    splitBlock(section.blocks[k]!, budget, counts, block.units).forEach((piece, p) => {
      out.push({ kind: block.kind, ...piece, tight: p === 0 && block.tight });
    });
  });
  return out;
}

/**
 * Above this many characters per token of the limit a section is not tried as one chunk: so few
 * tokens for so many characters are rare (English averages about 4 characters a token).
 */
const ONE_CHUNK_CHARS_PER_TOKEN = 6;

/** A section's heading lines as one block. */
function leadBlock(lead: Block[]): Block {
  const text = joinBlocks(lead.map((block) => ({ text: block.lines.join("\n"), tight: block.tight })));
  return { kind: "heading", lines: text.split("\n") };
}

/** The exact count of `parts` joined as the page wrote them (the first one's `tight` is ignored). */
function joinedTokens(parts: readonly PackedBlock[], counts: Counts): number {
  let tally = counts.start(parts[0]!);
  for (let k = 1; k < parts.length; k++) tally = counts.add(tally, separatorBefore(parts[k]!), parts[k]!);
  return tally.tokens;
}

/** A section's chunks, as texts with their token counts, in order. */
export function packSection(section: Section, settings: PackSettings): Piece[] {
  const { maxTokens, overlap, counts, separator } = settings;
  const heading = section.lead.length ? counted(leadBlock(section.lead), settings) : undefined;
  const whole = section.blocks.map((block) => counted(block, settings));
  const parts = heading ? [heading, ...whole] : whole;
  // The section as one chunk when it fits, as most sections of a page do.
  let length = 0;
  for (const block of [...section.lead, ...section.blocks]) {
    for (const line of block.lines) length += line.length + 2;
  }
  if (length <= maxTokens * ONE_CHUNK_CHARS_PER_TOKEN) {
    const tokens = joinedTokens(parts, counts);
    if (tokens <= maxTokens) return [{ text: joinBlocks(parts), tokens }];
  }

  const out: Piece[] = [];
  let lead: Piece | undefined;
  if (heading && heading.tokens <= maxTokens) lead = heading;
  else if (heading) out.push(...splitBlock(leadBlock(section.lead), maxTokens, counts));
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
    const tallies = [
      prefix ? counts.add(counts.start(prefix), separatorBefore(first), first) : counts.start(first),
    ];
    for (let k = i + 1; k < j; k++) {
      tallies.push(counts.add(tallies[k - i - 1]!, separatorBefore(blocks[k]!), blocks[k]!));
    }
    let tokens = tallies[j - i - 1]!.tokens;
    while (tokens > maxTokens && j - i > 1) tokens = tallies[--j - i - 1]!.tokens;
    if (tokens > maxTokens && prefix) {
      if (prefixIsLead) out.push(prefix);
      prefix = undefined;
      continue;
    }
    out.push({ text: joinBlocks([...(prefix ? [prefix] : []), ...blocks.slice(i, j)]), tokens });
    prefix = overlap ? overlapTail(blocks.slice(i, j), overlap, separator, counts.count) : undefined;
    prefixIsLead = false;
    i = j;
  }
  if (!blocks.length && lead) out.push(lead);
  return out;
}
