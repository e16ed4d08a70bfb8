/**
 * Blocks grouped into sections: a heading and the blocks up to the next heading, each with the
 * heading path above it. A heading with nothing under it before a deeper heading opens that
 * deeper section instead of making a chunk of its own ("# Guide" then "## Install": the first
 * chunk of Install starts with both lines), since a chunk holding only a heading retrieves nothing.
 */

import type { Block } from "./blocks.ts";

/** A heading's section: the heading lines that open it, then its content blocks. */
export interface Section {
  /** Heading texts from the outermost down to this section's own; [] before the first heading. */
  headings: string[];
  /** Heading blocks the section's first chunk starts with (its own, after any empty parents'). */
  lead: Block[];
  /** Everything under the heading up to the next one. */
  blocks: Block[];
  /** The section heading's level, 0 for the text before the first heading. */
  level: number;
}

/** Groups blocks into sections, in order; sections with neither heading nor content are left out. */
export function groupSections(blocks: Block[]): Section[] {
  const sections: Section[] = [];
  const path: { level: number; title: string }[] = [];
  let current: Section = { headings: [], lead: [], blocks: [], level: 0 };
  for (const block of blocks) {
    if (block.kind !== "heading") {
      current.blocks.push(block);
      continue;
    }
    const level = block.level ?? 1;
    while (path.length && path[path.length - 1]!.level >= level) path.pop();
    path.push({ level, title: block.title ?? "" });
    const headings = path.map((h) => h.title).filter(Boolean);
    const carried = !current.blocks.length && current.level > 0 && level > current.level;
    if (!carried && (current.lead.length || current.blocks.length)) sections.push(current);
    current = { headings, lead: carried ? [...current.lead, block] : [block], blocks: [], level };
  }
  if (current.lead.length || current.blocks.length) sections.push(current);
  return sections;
}
