import {
  type AnyNode,
  BLOCK_TAGS,
  type Element,
  HEADING_TAGS,
  hasDescendant,
  isElement,
  removeNode,
  textOf,
  visibleTextLength,
} from "./nodes.ts";
import { isRailHeading } from "./related-rails.ts";
import { MEDIA } from "./trailing-headings.ts";

/**
 * The site's prompts that end (or open) a story: "Follow her on Twitter", "Like this story? Share it with a
 * friend!", "Get the latest updates right in your inbox. Subscribe to our newsletters", "Email
 * Tariq Malik at ...", "Listen to Newsbeat live at 12:45 and 17:45 weekdays - or listen back
 * here". A paragraph that ends the content, says one of these, is short (up to
 * PROMPT_MAX characters) and is set apart as sites set their prompts (emphasised, or holding a
 * link) goes, and then the one before it, if it too is one. The phrases are English and name what
 * a prompt asks for (a newsletter, a channel, a friend to share with): a story's closing quote
 * ("We will follow him wherever he goes") or sentence ("readers who subscribe to the theory") says
 * none of it, and a paragraph longer than a prompt stays whatever it says.
 */
const PROMPT =
  /\b(?:[Ff]ollow (?:us|him|her|them|me) (?:on\b|at\b|@)|[Ff]ollow @\w|(?:[Ss]ubscribe to|[Ss]ign up (?:for|to))\b[^.!?]{0,80}?\b(?:[Nn]ewsletters?|[Pp]odcasts?|[Cc]hannels?|[Ff]eeds?|[Uu]pdates|[Aa]lerts|[Ee]mails?|[Bb]riefings?)\b|[Ss]hare (?:it|this)(?: story| article| post)? with (?:a friend|friends|your friends|others)\b|[Ll]ike this (?:story|article|post)\?|(?:may|can) be reached at\b|in your inbox\b|(?:Follow|Email|E-mail) (?:@\w+|\p{Lu}[\w.'’]*(?: \p{Lu}[\w.'’]*)*) (?:on|at)\b|[Ff]ollow\b[^.!?]{0,80}?\bon (?:Facebook|Twitter|Instagram|LinkedIn|YouTube|TikTok|Threads|Bluesky|Mastodon)\b|[Ff]ollow (?:\p{Lu}[\w'’]*\s+){1,4}(?:full |complete |live |latest )?coverage\b|[Ii]f you (?:enjoyed|liked|appreciated) (?:this|the) (?:article|story|post|piece)\b|[Ww]e(?:'|’)d (?:like|love) to hear (?:what you think|from you)\b|\b[Ll]isten (?:back|again)\b|\b(?:[Ll]isten to|[Ww]atch)\b[^.!?]{0,40}\blive\b[^.!?]{0,40}\b(?:weekdays|daily|every (?:day|weekday|morning|evening|night)|at \d{1,2}[:.]\d{2}))/u;

/**
 * The credits closing a news story: who reported, wrote or edited it ("Reporting by Rodrigo Campos;
 * Editing by Nick Zieminski", "Associated Press writers Alan Fram and Zeke Miller contributed to
 * this report.", "Additional reporting by Joseph Hudak"). Set apart or not: the words are the
 * wire's formula, and a story's own sentence says more.
 */
const CREDIT =
  /^[\s(*_]*(?:(?:additional|more|with|and)\s+)?(?:reporting|writing|editing|research|reported|written|edited|compiled)\s+by\b|\bcontributed (?:additional )?(?:reporting|to this (?:report|story|article))\b/i;

/** A count of the page's comments ending the content ("comments" beside a counter a script fills, "3 Comments", "No comments"): their widget's label. */
const COMMENT_COUNT = /^(?:(?:\d[\d,.]*|no)\s+)?comments?(?:\s*\(\d+\))?$/i;

/**
 * A note on how the page's comments are moderated, closing the story above their widget ("ATENÇÃO:
 * Comentários com textos ininteligíveis ... não serão aprovados pelo moderador.", "Comments are
 * moderated and will not appear until approved."): the comments (after a label such as "Note:" and
 * a determiner or two) are its subject and their moderation its verb, in the languages matched. A
 * story's own sentence about comments reports it ("..., the company said") and stays.
 */
const COMMENT_POLICY =
  /^(?:[^:]{1,24}:\s*)?(?:(?:all|any|the|your|our|os|as|los|las|todos|les|tous|die|alle|i|gli|tutti)\s+){0,2}(?:comments?|comentários?|comentarios?|commentaires?|kommentare?|commenti)\b[^.!?]{0,160}?(?:moderat|modér|approv|aprovad|aprobad|publicad|publish|publié|veröffentlich|pubblicat|remov|delet|supprim|eliminad|gelöscht)/iu;
/** Reported speech: a story's sentence, not the site's note. */
const REPORTED = /\b(?:said|says|according to|disse|dijo|a déclaré|sagte|ha detto)\b/i;

/** How a site sets its prompt apart from the story: in emphasis, or around a link. */
const SET_APART = new Set(["a", "em", "i", "strong", "b"]);

/** A prompt's length at most, in characters: two or three sentences. */
const PROMPT_MAX = 400;
/** Prompts taken off the end at most. */
const MOST_TAKEN = 4;

/** Blocks a prompt may be, or sit in. Lists, tables, headings, quotes and figures are content of their own. */
const BLOCKS = new Set(["p", "div", "section", "aside", "footer", "center", "article", "main"]);

/** `root` shows nothing: no words, no picture. */
const NOTHING = Symbol("nothing");

/**
 * The paragraph that ends (`last`, or opens) `block`'s content: the block its last (first) visible
 * words sit in; null when the content ends otherwise (a list, a table, a picture); NOTHING when
 * `block` shows nothing. Read from that end, each node once: a block that shows nothing is passed
 * for the next one in.
 * Recursive: the tree comes from parseBounded, at most MAX_DOM_DEPTH (512) deep (depth.ts).
 */
function lastParagraph(block: Element, last = true): Element | null | typeof NOTHING {
  const kids = block.children;
  for (let i = last ? kids.length - 1 : 0; last ? i >= 0 : i < kids.length; i += last ? -1 : 1) {
    const child = kids[i]!;
    if (!isElement(child)) {
      if (child.type === "text" && /\S/.test(child.data)) return block;
      continue;
    }
    if (MEDIA.has(child.name)) return null;
    if (child.children.length === 0) continue;
    if (BLOCKS.has(child.name)) {
      const found = lastParagraph(child, last);
      if (found !== NOTHING) return found;
      continue;
    }
    if (visibleTextLength(child, 0) === 0) continue;
    // A heading is read as a paragraph of its own: "## [Click here to subscribe to our Newsletter]".
    if (HEADING_TAGS.has(child.name)) return child;
    // Words in a line (a link, emphasis, code) are the block's paragraph; another block is content of its own.
    return BLOCK_TAGS.has(child.name) ? null : block;
  }
  return NOTHING;
}

/**
 * Drops the prompts that end the content (see PROMPT): each a paragraph of its own, never one of
 * `roots` itself, and never the content's only words.
 */
export function dropTrailingPrompts(roots: readonly Element[]): void {
  dropClosingPrompts(roots);
  dropOpeningPrompt(roots);
}

function dropClosingPrompts(roots: readonly Element[]): void {
  for (let taken = 0; taken < MOST_TAKEN; taken++) {
    // The last root that shows something ends the content.
    let end: Element | null | typeof NOTHING = NOTHING;
    for (let i = roots.length - 1; i >= 0 && end === NOTHING; i--) end = lastParagraph(roots[i]!);
    if (end === null || end === NOTHING || roots.includes(end)) return;
    const text = shortText(end);
    if (text === null) return;
    if (
      !isPrompt(end, text) &&
      !COMMENT_COUNT.test(text) &&
      !CREDIT.test(text) &&
      !isCommentPolicy(text) &&
      !isRailLabel(end, text) &&
      !isRailLine(end, text)
    )
      return;
    if (!fewOf(roots, text)) return;
    removeNode(end);
  }
}

/** A block's text when it is no longer than a prompt; measured before it is read, as it may be most of the page. */
function shortText(block: Element): string | null {
  return visibleTextLength(block, PROMPT_MAX) > PROMPT_MAX ? null : textOf(block);
}

/**
 * A line of links under a rail's label ("Related Roundup: [MacBook Pro]", "More AP NBA:
 * https://apnews.com/NBA and https://twitter.com/AP_Sports"): a label of up to four words naming
 * related or more stories, a colon, then links or addresses and at most a joining word. A label
 * over prose ("More information: G. Petit et al., ...") is a source and stays.
 */
const RAIL_LINE =
  /^(?:related|more|see also|read more|also read|read also|further reading)\b(?:\s+[^\s:]+){0,3}:\s*(.*)$/isu;
const ADDRESS = /\bhttps?:\/\/\S+/g;
/** What may join a rail line's links: "and", commas, a bar. */
const JOINING = /^(?:[\s,;|/·&-]|\band\b|\bor\b)*$/i;

/** Whether `block` is a rail's label and its links (RAIL_LINE), read from its text outside links. */
function isRailLine(block: Element, text: string): boolean {
  const line = RAIL_LINE.exec(text.trim());
  if (!line?.[1]) return false;
  let outside = "";
  const walk = (node: AnyNode): void => {
    if (node.type === "text") outside += node.data;
    else if (isElement(node) && node.name !== "a") for (const child of node.children) walk(child);
  };
  walk(block);
  const rest = RAIL_LINE.exec(outside.trim())?.[1] ?? outside;
  return JOINING.test(rest.replace(ADDRESS, " "));
}

/**
 * Whether a paragraph is a rail's label left without its rail ("You may also like...", its headlines
 * gone): the whole text names a rail (isRailHeading). A heading so named went with its rail
 * (dropRelatedRails).
 */
function isRailLabel(block: Element, text: string): boolean {
  return !HEADING_TAGS.has(block.name) && isRailHeading(text.trim());
}

/** Whether `text` is the site's note on moderating its comments (COMMENT_POLICY). */
function isCommentPolicy(text: string): boolean {
  return COMMENT_POLICY.test(text.trim()) && !REPORTED.test(text);
}

/** Whether a block says a prompt (PROMPT) and is set apart as sites set their prompts. */
function isPrompt(block: Element, text: string): boolean {
  return PROMPT.test(text) && (SET_APART.has(block.name) || hasDescendant(block, SET_APART));
}

/** Whether `text` is a small part of the content (a third at most): a prompt that is nearly all of it stays. */
function fewOf(roots: readonly Element[], text: string): boolean {
  return roots.reduce((sum, root) => sum + visibleTextLength(root), 0) >= text.length * 3;
}

/**
 * Drops a prompt that opens the content, set apart as the closing ones are ("Start your day with
 * the Opening Bell. Sign up for the free daily newsletter." in bold above a roundup).
 */
function dropOpeningPrompt(roots: readonly Element[]): void {
  // The page's title and subtitle, each a root of its own above the content, open nothing.
  let start: Element | null | typeof NOTHING = NOTHING;
  for (let i = 0; i < roots.length && (start === NOTHING || (start !== null && roots.includes(start))); i++)
    start = lastParagraph(roots[i]!, false);
  if (start === null || start === NOTHING || roots.includes(start)) return;
  const text = shortText(start);
  if (text !== null && isPrompt(start, text) && fewOf(roots, text)) removeNode(start);
}
