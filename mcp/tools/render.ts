/** Small pieces of the markdown the tools answer with. */
import type { ItemPage, TextPage } from "../paging.ts";

/** A JSON value as a fenced block. */
export function jsonBlock(value: unknown): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** Says which part of a long text this is and how to get the next; empty when the text is whole. */
export function partNote(page: TextPage, tool: string): string {
  if (page.startIndex === 0 && page.nextStartIndex === null) return "";
  const range = `Part: characters ${page.startIndex}-${page.endIndex} of ${page.totalLength}.`;
  return page.nextStartIndex === null
    ? `${range} This is the last part.`
    : `${range} For the next part call ${tool} again with the same arguments and startIndex: ${page.nextStartIndex}.`;
}

/** Says which items of a list these are and how to get the rest; empty when the list is whole. */
export function itemsNote(page: ItemPage, what: string, again: string): string {
  if (page.startIndex === 0 && page.nextStartIndex === null) return "";
  const range = `Showing ${what} ${page.startIndex + 1}-${page.endIndex} of ${page.total}.`;
  return page.nextStartIndex === null
    ? range
    : `${range} For more call ${again} with startIndex: ${page.nextStartIndex}.`;
}

/**
 * `text` cut to `max` characters, saying so and how to read on: a list item longer than the
 * whole answer's budget is the one thing returned, and never silently shortened.
 */
export function cutWithNote(text: string, max: number, url: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[Cut at ${max} of ${text.length} characters: siphon_fetch {"url": "${url}", "startIndex": ${max}} reads on.]`;
}
