/** Pages to passages, and passages ranked for a question by BM25: what answer, ask and the agent share. */
export { type RankedPassage, rankPassages } from "./bm25.ts";
export { MAX_PASSAGE_WORDS, MIN_PASSAGE_WORDS, type Passage, plainText, splitPassages } from "./split.ts";
export { termsOf, tokenize } from "./terms.ts";
