/**
 * A heading's text as a heading path names it: "Install" for `## [Install](#install) ¶`. The
 * markup goes (links keep their text, images, emphasis marks and code backticks go) and so do
 * the marks a docs site puts after a heading to link to it.
 */

/** `[¶](#install)`, `[#](#install)`, `[](#install)`: a link to the heading itself. */
const PERMALINK = /\[\s*(?:¶|#|§|🔗|link|permalink)?\s*\]\(#[^)]*\)/giu;
/** Marks left at the end once links are text: ¶ § 🔗 anywhere at the end, # only after a space. */
const TRAILING_MARK = /(?:\s*[¶§🔗]|\s+#+)+\s*$/u;

/** A character some rule below removes or rewrites; a heading with none (most) is only spaced. */
const MARKUP = /[#[<!*_`\\¶§🔗]/u;

/** Plain text of a heading's content (the line without its leading #'s, or a setext heading's text). */
export function headingTitle(content: string): string {
  if (!MARKUP.test(content)) return content.replace(/\s+/g, " ").trim();
  return content
    .replace(/(?:^|[ \t]+)#+[ \t]*$/, "")
    .replace(PERMALINK, "")
    .replace(/<\/?a\b[^>]*>/gi, "")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[\s(])[*_](\S(?:.*?\S)?)[*_](?=$|[\s).,:;!?])/g, "$1$2")
    .replace(/`+([^`]+?)`+/g, "$1")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(TRAILING_MARK, "")
    .replace(/\s+/g, " ")
    .trim();
}
