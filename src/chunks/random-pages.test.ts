import { expect, test } from "bun:test";
import { chunkMarkdown, countTokens, type TokenizerName } from "./index.ts";

/** A seeded generator, so a failing page can be made again. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const upTo = (n: number) => Math.floor(next() * n);
  return { pick, upTo };
}

const WORDS = [
  "tide",
  "station",
  "東京の潮位は",
  "—",
  `data:image/png;base64,${"iVBORw0KGgo".repeat(30)}`,
  "C#",
  "**bold**",
  "`code`",
  "[link](https://x.example/a)",
  "<|endoftext|>",
  "3.14",
  "e.g.",
  "。",
];

/** A page mixing every kind of block, many of them too long for small limits. */
function randomPage(seed: number): string {
  const { pick, upTo } = random(seed);
  const sentence = () =>
    Array.from({ length: 1 + upTo(25) }, () => pick(WORDS)).join(pick([" ", " ", ""])) +
    pick([".", "?", "。", ""]);
  const paragraph = () => Array.from({ length: 1 + upTo(10) }, sentence).join(pick([" ", "\n"]));
  const block = () => {
    const kind = upTo(8);
    if (kind === 0) return `${"#".repeat(1 + upTo(6))} ${sentence().slice(0, 80)}${pick(["", " ¶"])}`;
    if (kind === 1) {
      const fence = pick(["```", "~~~", "````"]);
      return [
        `${fence}js`,
        ...Array.from({ length: upTo(60) }, () => pick(["", "  "]) + sentence()),
        fence,
      ].join("\n");
    }
    if (kind === 2) {
      const row = () => `| ${sentence().slice(0, 20 + upTo(150))} | ${upTo(100)} |`;
      return ["| name | value |", "| --- | --- |", ...Array.from({ length: upTo(50) }, row)].join("\n");
    }
    if (kind === 3) {
      const item = (k: number) =>
        `${k + 1}. ${paragraph()}${upTo(3) ? "" : `\n   - nested ${sentence()}`}` +
        (upTo(4)
          ? ""
          : `\n   \`\`\`\n   ${Array.from({ length: upTo(40) }, sentence).join("\n\n   ")}\n   \`\`\``);
      return Array.from({ length: 1 + upTo(8) }, (_, k) => item(k)).join(pick(["\n", "\n\n"]));
    }
    if (kind === 4) return `    ${sentence()}\n\n    ${sentence()}`;
    return paragraph();
  };
  return Array.from({ length: 1 + upTo(20) }, block).join(pick(["\n\n", "\r\n\r\n"]));
}

/** Fenced code blocks all closed in `text`. */
function fencesBalanced(text: string): boolean {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    const marker = trimmed.match(/^(`{3,}|~{3,})/)?.[1];
    if (!marker) continue;
    if (!open) open = marker;
    else if (trimmed.length >= open.length && trimmed === open[0]!.repeat(trimmed.length)) open = undefined;
  }
  return open === undefined;
}

test("random pages of every kind of block: within the limit, exact counts, closed fences, same ids twice", () => {
  const problems: string[] = [];
  for (let seed = 1; seed <= 16; seed++) {
    const { pick, upTo } = random(seed * 7);
    const maxTokens = pick([32, 50, 100, 256, 512]);
    const overlap = pick([0, upTo(maxTokens / 2 - 1)]);
    const tokenizer = pick<TokenizerName>(["o200k_base", "cl100k_base"]);
    const page = randomPage(seed);
    const chunks = chunkMarkdown(page, { url: "https://x.example/" }, { maxTokens, overlap, tokenizer });
    const where = `page ${seed} (maxTokens ${maxTokens}, overlap ${overlap}, ${tokenizer})`;
    if (!chunks.length) problems.push(`${where}: no chunks`);
    for (const chunk of chunks) {
      if (chunk.tokens > maxTokens)
        problems.push(`${where}: chunk ${chunk.index} has ${chunk.tokens} tokens`);
      if (chunk.tokens !== countTokens(chunk.text, tokenizer))
        problems.push(`${where}: chunk ${chunk.index} miscounted`);
      if (!chunk.text.trim()) problems.push(`${where}: chunk ${chunk.index} is blank`);
      if (!fencesBalanced(chunk.text)) problems.push(`${where}: chunk ${chunk.index} leaves a fence open`);
    }
    if (new Set(chunks.map((c) => c.id)).size !== chunks.length) problems.push(`${where}: repeated ids`);
    const again = chunkMarkdown(page, { url: "https://x.example/" }, { maxTokens, overlap, tokenizer });
    if (again.map((c) => c.id).join() !== chunks.map((c) => c.id).join())
      problems.push(`${where}: ids changed`);
  }
  expect(problems).toEqual([]);
});
