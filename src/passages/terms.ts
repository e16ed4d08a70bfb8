import { stemmer } from "stemmer";

/**
 * Words as BM25 compares them. Text is cut at anything that is not a letter or digit; words
 * are lower-cased, English stop words dropped and English words stemmed (Porter, the `stemmer`
 * package: "mills" and "milling" both match "mill"); runs of Chinese, Japanese or Korean
 * characters, written without spaces, become overlapping character pairs (the CJK bigrams of
 * Lucene and Elasticsearch), so a question in Japanese finds a Japanese passage.
 */

const STOP_WORDS = new Set(
  (
    "a an and are as at be been being but by can could did do does doing for from had has have how i if in " +
    "into is it its itself me my of on or our so than that the their them then there these they this those " +
    "to too was we were what when where which while who whom why will with would you your about above after " +
    "again against all any because before below between both during each few further here just more most " +
    "no nor not now off once only other out over own same should some such through under until up very"
  ).split(" "),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;

/** Text to raw tokens: words, and CJK runs as character pairs. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}\p{M}]+/u)) {
    if (!word) continue;
    if (!CJK.test(word)) {
      tokens.push(word);
      continue;
    }
    for (const part of word.split(CJK_RUN)) {
      if (!part) continue;
      if (!CJK.test(part)) tokens.push(part);
      else if (part.length === 1) tokens.push(part);
      else for (let i = 0; i < part.length - 1; i++) tokens.push(part.slice(i, i + 2));
    }
  }
  return tokens;
}

/** One token as indexed and searched; null drops it (stop words). */
export function normalizeTerm(token: string): string | null {
  const lower = token.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  return /^[a-z]+$/.test(lower) ? stemmer(lower) : lower;
}

/** The distinct terms of a text, in order: what a query asks for. */
export function termsOf(text: string): string[] {
  const terms = new Set<string>();
  for (const token of tokenize(text)) {
    const term = normalizeTerm(token);
    if (term) terms.add(term);
  }
  return [...terms];
}
