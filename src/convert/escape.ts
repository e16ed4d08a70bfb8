/** Escapes text for use in HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Picks a markdown code fence longer than any backtick run inside `code`, so the block can never close early. */
export function codeFence(code: string): string {
  // A loop, not Math.max(...runs): spreading one argument per run overflows the stack on a large body.
  let longest = 0;
  for (const run of code.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}
