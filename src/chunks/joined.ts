/**
 * Blocks put back together as they were written: a blank line between two blocks, or a single
 * line break where the page had none (the items of a tight list stay a tight list).
 */

import type { BlockKind } from "./blocks.ts";
import type { Piece } from "./split.ts";

/** A block as packed into a chunk: its kind, markdown and token count. */
export interface PackedBlock extends Piece {
  kind: BlockKind;
  /** Followed the block before it with no blank line between. */
  tight?: boolean;
  /** Its sentences (a paragraph's or heading's) or lines, counted, when it was counted by them. */
  units?: Piece[];
}

/** The markdown of consecutive blocks (the first one's `tight` is ignored). */
export function joinBlocks(blocks: readonly Pick<PackedBlock, "text" | "tight">[]): string {
  let text = "";
  blocks.forEach((block, k) => {
    if (k) text += block.tight ? "\n" : "\n\n";
    text += block.text;
  });
  return text;
}
