import { Text } from "domhandler";
import { type Element, textOf, wordsOf } from "./nodes.ts";

/** Links that share the page on a social network or by message: a share widget, whatever its class. */
export const SHARE_HREF =
  /^(?:whatsapp:|sms:|mailto:\?|https?:\/\/(?:www\.|api\.)?(?:facebook\.com\/(?:sharer|share\.php|dialog\/share)|(?:twitter|x)\.com\/(?:intent|share)|linkedin\.com\/(?:shareArticle|sharing|cws\/share)|pinterest\.[a-z.]+\/pin\/create|reddit\.com\/submit|t\.me\/share|telegram\.me\/share|wa\.me\/|whatsapp\.com\/send|tumblr\.com\/(?:share|widgets\/share)|vk\.com\/share|news\.ycombinator\.com\/submitlink|getpocket\.com\/(?:save|edit)|flipboard\.com\/bookmarklet|buffer\.com\/add|plus\.google\.com\/share))/i;

/** Words from which the text a share link offers is a sentence of the page, not a title or a call. */
const QUOTE_WORDS = 8;

/**
 * A pull quote drawn as a share link ("click to tweet": the sentence shown in a box with a "Click
 * To Tweet" button, the whole box a link sharing that sentence) is the article's sentence: the
 * link becomes a blockquote of the sentence it shares (its `text` or `quote` parameter), when the
 * link shows that sentence and it is a sentence (eight words or more). Any other share link is
 * left as it is (a share button, dropped as one).
 */
export function quoteSharedSentence(el: Element): void {
  if (el.name !== "a") return;
  const href = el.attribs.href?.trim();
  if (!href || !SHARE_HREF.test(href)) return;
  let offered: string | null = null;
  try {
    const params = new URL(href).searchParams;
    offered = params.get("text") ?? params.get("quote");
  } catch {
    return;
  }
  const quote = offered?.replace(/\s+/g, " ").trim();
  if (!quote || wordsOf(quote).length < QUOTE_WORDS) return;
  if (!textOf(el).startsWith(quote)) return;
  const text = new Text(quote);
  text.parent = el;
  el.name = "blockquote";
  el.attribs = {};
  el.children = [text];
}
