import { expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import { countTokens, TOKENIZERS, type TokenizerName } from "./tokenizer.ts";

test("counts with the real o200k_base encoding by default", () => {
  expect(countTokens("hello world")).toBe(2);
  expect(countTokens("")).toBe(0);
  expect(countTokens("hello world", "o200k_base")).toBe(2);
});

test("every listed encoding loads and counts, and they differ where their vocabularies do", () => {
  const text = "東京の潮位は午前中に上がり、午後には下がる見込みです。";
  const counts = new Map(TOKENIZERS.map((name) => [name, countTokens(text, name)]));
  for (const count of counts.values()) expect(count).toBeGreaterThan(5);
  expect(counts.get("o200k_base")).toBeLessThan(counts.get("cl100k_base")!);
  expect(counts.get("cl100k_base")).toBeLessThan(counts.get("r50k_base")!);
});

test("special-token text on a page is counted as text, not refused", () => {
  expect(countTokens("before <|endoftext|> after")).toBeGreaterThan(3);
});

test("an unknown encoding is refused with invalid_request", () => {
  expect(() => countTokens("x", "bert" as TokenizerName)).toThrow(SiphonError);
});
