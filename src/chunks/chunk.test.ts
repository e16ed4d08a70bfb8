import { describe, expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import { type Chunk, chunkMarkdown, countTokens, DEFAULT_MAX_TOKENS, type TokenizerName } from "./index.ts";

const PAGE = { url: "https://docs.example/guide", title: "Guide" };

/** A sentence of about 12 tokens, different for each n. */
const sentence = (n: number) => `Sentence number ${n} tells the reader about the tide at station ${n * 7}.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => sentence(from + k)).join(" ");

/** Fenced code blocks in `text` all closed (``` or ~~~, a closing fence at least as long). */
function fencesBalanced(text: string): boolean {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const marker = line.trim().match(/^(`{3,}|~{3,})/)?.[1];
    if (!marker) continue;
    if (!open) open = marker;
    else if (line.trim() === open[0]!.repeat(line.trim().length) && line.trim().length >= open.length)
      open = undefined;
  }
  return open === undefined;
}

/** Every run of table lines in `text` starts with a header row and a separator row. */
function tablesHaveHeaders(text: string, header: string): boolean {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("|") || lines[i - 1]?.startsWith("|")) continue;
    if (lines[i] !== header || !/^\|[-| :]+\|$/.test(lines[i + 1] ?? "")) return false;
  }
  return true;
}

const squash = (text: string) => text.replace(/\s+/g, "");

function longDocument(): string {
  const parts: string[] = ["# Tidewater", paragraph(0, 3)];
  for (let s = 1; s <= 6; s++) {
    parts.push(`## Part ${s}`, paragraph(s * 100, 8));
    const code = Array.from({ length: 12 }, (_, k) => `station_${s}_${k} = read(${k})`);
    parts.push(["```python", ...code, "```"].join("\n"));
    const rows = Array.from({ length: 10 }, (_, k) => `| s${s}-${k} | ${k} m |`);
    parts.push(["| station | level |", "|---|---|", ...rows].join("\n"));
    parts.push(
      Array.from(
        { length: 5 },
        (_, k) => `- Item ${s}.${k} explains a gauge.\n  It continues on a second line.`,
      ).join("\n"),
    );
    parts.push(`### Detail ${s}`, paragraph(s * 100 + 50, 20));
  }
  return parts.join("\n\n");
}

describe("heading paths", () => {
  test("nested headings give the path above each chunk, and the path goes back up", () => {
    const md = [
      "# Guide",
      "Intro.",
      "## Install",
      "How to install.",
      "### On Debian",
      "apt-get it.",
      "### On macOS",
      "brew it.",
      "## Use",
      "Run it.",
      "# Appendix",
      "More.",
    ].join("\n\n");
    const chunks = chunkMarkdown(md, PAGE);
    expect(chunks.map((c) => c.headings)).toEqual([
      ["Guide"],
      ["Guide", "Install"],
      ["Guide", "Install", "On Debian"],
      ["Guide", "Install", "On macOS"],
      ["Guide", "Use"],
      ["Appendix"],
    ]);
  });

  test("heading texts lose #'s, permalink marks and markup", () => {
    const md = [
      "# Guide ¶",
      "a",
      "## Install #",
      "b",
      "### [On Debian](#on-debian) [¶](#on-debian)",
      "c",
      "### **Bold** `code` C#",
      "d",
      "Setext title\n------------",
      "e",
    ].join("\n\n");
    expect(chunkMarkdown(md, PAGE).map((c) => c.headings.at(-1))).toEqual([
      "Guide",
      "Install",
      "On Debian",
      "Bold code C#",
      "Setext title",
    ]);
  });

  test("a section's first chunk starts with its heading line; later chunks of it do not repeat it", () => {
    const md = `## Long section\n\n${paragraph(0, 10)}\n\n${paragraph(10, 10)}\n\n${paragraph(20, 10)}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 160 });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[0]!.text.startsWith("## Long section\n\n")).toBe(true);
    for (const chunk of chunks.slice(1)) {
      expect(chunk.text).not.toContain("## Long section");
      expect(chunk.headings).toEqual(["Long section"]);
    }
  });

  test("a heading with nothing under it opens its first subsection's chunk instead of standing alone", () => {
    const chunks = chunkMarkdown("# Guide\n\n## Install\n\nRun it.\n\n## Use\n\nUse it.", PAGE);
    expect(chunks.map((c) => c.text)).toEqual(["# Guide\n\n## Install\n\nRun it.", "## Use\n\nUse it."]);
    expect(chunks[0]!.headings).toEqual(["Guide", "Install"]);
  });
});

describe("limits", () => {
  test("no chunk exceeds maxTokens, and tokens is the chunk's real count", () => {
    const md = longDocument();
    for (const maxTokens of [32, 64, 200, DEFAULT_MAX_TOKENS]) {
      const chunks = chunkMarkdown(md, PAGE, { maxTokens });
      for (const chunk of chunks) {
        expect(chunk.tokens).toBe(countTokens(chunk.text));
        expect(chunk.tokens).toBeLessThanOrEqual(maxTokens);
      }
    }
  });

  test("without splits, the chunks hold the page's text once, in order", () => {
    const md = longDocument();
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 1024 });
    expect(squash(chunks.map((c) => c.text).join(""))).toBe(squash(md));
  });

  test("a chunk its blocks' counts fill to the limit but whose joins count one more is shortened, still exact", () => {
    const code = "```\nlet tide = 1;\n```";
    const path =
      "/tides/station/gauge/gauge/gauge/gauge/gauge/gauge holds the readings of the tide at every station.";
    const maxTokens = countTokens(code) + countTokens("\n\n") + countTokens(path);
    // The fence, the blank line and the "/" after it are one piece: joined, they count one more than apart.
    expect(countTokens(`${code}\n\n${path}`)).toBe(maxTokens + 1);
    const chunks = chunkMarkdown(`${code}\n\n${path}`, PAGE, { maxTokens });
    expect(chunks.map((c) => c.text)).toEqual([code, path]);
    for (const chunk of chunks) expect(chunk.tokens).toBe(countTokens(chunk.text));
  });

  test("chunks joined from blocks of every kind count exactly their text, in each kind of encoding", () => {
    const blocks = [
      "Intro ending in a colon:",
      "    indented code;\n    more();",
      "- item one\n  - nested item\n\t- tabbed item",
      "/path/at/the/start of a paragraph.",
      "| a | b |\n|---|---|\n| 1 | 2 |",
      "---",
      "東京の潮位は午前中に上がり、午後には下がる見込みです。",
      "\u00a0Non-breaking space first, then text  ",
      "```sh\n\n  # blank line first\n/usr/bin/tide\n```",
      "1. step\n2. step /x\n3) step",
      "Ends with a word",
    ];
    const md = Array.from({ length: 4 }, (_, k) => blocks.map((block) => `${block} ${k}`).join("\n\n")).join(
      "\n\n",
    );
    for (const tokenizer of ["o200k_base", "cl100k_base", "r50k_base"] as TokenizerName[]) {
      for (const maxTokens of [32, 64, 200, 512]) {
        for (const chunk of chunkMarkdown(md, PAGE, { maxTokens, tokenizer })) {
          expect(chunk.tokens).toBe(countTokens(chunk.text, tokenizer));
          expect(chunk.tokens).toBeLessThanOrEqual(maxTokens);
        }
      }
    }
  });

  test("small sections are not merged: every heading starts a chunk", () => {
    const chunks = chunkMarkdown("## A\n\none\n\n## B\n\ntwo", PAGE);
    expect(chunks.map((c) => c.text)).toEqual(["## A\n\none", "## B\n\ntwo"]);
  });
});

describe("atomic blocks", () => {
  test("a code block that fits is never cut, and every chunk's fences balance", () => {
    const md = longDocument();
    for (const maxTokens of [200, 512]) {
      const chunks = chunkMarkdown(md, PAGE, { maxTokens });
      for (const chunk of chunks) expect(fencesBalanced(chunk.text)).toBe(true);
      const code = md.match(/```python\n[\s\S]*?\n```/)![0];
      expect(chunks.filter((c) => c.text.includes(code))).toHaveLength(1);
    }
  });

  test("a code block over the limit splits at lines, each piece inside the block's own fences", () => {
    const lines = Array.from({ length: 200 }, (_, k) => `    value_${k} = compute(${k}, "tide")`);
    const md = `## Code\n\n~~~~python\n${lines.join("\n")}\n~~~~\n\nAfter.`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 128 });
    const pieces = chunks.filter((c) => c.text.includes("value_"));
    expect(pieces.length).toBeGreaterThan(5);
    const body: string[] = [];
    for (const piece of pieces) {
      expect(fencesBalanced(piece.text)).toBe(true);
      expect(piece.tokens).toBeLessThanOrEqual(128);
      const code = piece.text.match(/~~~~python\n([\s\S]*?)\n~~~~(?:\n|$)/)?.[1];
      expect(code).toBeDefined();
      body.push(...code!.split("\n"));
    }
    expect(body).toEqual(lines);
  });

  test("an unclosed fence split over chunks still gives each piece a closing fence", () => {
    const md = `\`\`\`js\n${Array.from({ length: 120 }, (_, k) => `let x${k} = ${k};`).join("\n")}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.text.startsWith("```js\n")).toBe(true);
      expect(fencesBalanced(chunk.text)).toBe(true);
    }
  });

  test("a table over the limit splits between rows, each piece under the header and separator rows", () => {
    const header = "| station | level | note |";
    const rows = Array.from({ length: 120 }, (_, k) => `| s${k} | ${k} m | rising slowly |`);
    const md = `## Levels\n\n${header}\n|---|---|---|\n${rows.join("\n")}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 100 });
    expect(chunks.length).toBeGreaterThan(5);
    const seen: string[] = [];
    for (const chunk of chunks) {
      expect(tablesHaveHeaders(chunk.text, header)).toBe(true);
      seen.push(...chunk.text.split("\n").filter((line) => /^\| s\d/.test(line)));
    }
    expect(seen).toEqual(rows);
  });

  test("a table whose header rows take most of the limit is still split under the limit", () => {
    const header = `| ${Array.from({ length: 14 }, (_, k) => `column ${k}`).join(" | ")} |`;
    const rows = Array.from(
      { length: 40 },
      (_, k) => `| ${Array.from({ length: 14 }, () => k).join(" | ")} |`,
    );
    const md = [header, `|${" --- |".repeat(14)}`, ...rows].join("\n");
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 64 });
    expect(countTokens(header)).toBeGreaterThan(32);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(64);
  });

  test("tables that fit keep their header and are never cut", () => {
    const md = longDocument();
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 200 });
    for (const chunk of chunks) expect(tablesHaveHeaders(chunk.text, "| station | level |")).toBe(true);
  });

  test("a list item with its continuation lines and nested items stays in one chunk", () => {
    const items = Array.from(
      { length: 30 },
      (_, k) => `${k + 1}. Step ${k} of the setup.\n   It needs a second line.\n   - nested detail ${k}`,
    );
    const md = `## Steps\n\n${items.join("\n")}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const item of items) expect(chunks.filter((c) => c.text.includes(item))).toHaveLength(1);
    expect(
      chunks[1]!.text.startsWith(items[chunks[0]!.text.split("\n").filter((l) => /^\d/.test(l)).length]!),
    ).toBe(true);
  });

  test("a tight list stays tight: its items are joined by one line break", () => {
    const chunks = chunkMarkdown("- one\n- two\n- three", PAGE);
    expect(chunks.map((c) => c.text)).toEqual(["- one\n- two\n- three"]);
  });

  test("a paragraph over the limit splits at sentence ends", () => {
    const md = paragraph(0, 60);
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(64);
      expect(chunk.text).toMatch(/^Sentence number \d+ .*\.$/);
    }
    expect(chunks.map((c) => c.text).join(" ")).toBe(md);
  });
});

describe("text without spaces or breaks", () => {
  test("Japanese (no spaces) splits under the limit and loses nothing", () => {
    const line = "東京の潮位は午前中に上がり、午後には下がる見込みです。";
    const md = `## 潮位\n\n${line.repeat(80)}\n\n${"観測所のデータは毎時更新されます".repeat(60)}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(64);
    expect(squash(chunks.map((c) => c.text).join(""))).toBe(squash(md));
    expect(chunks.filter((c) => c.text.includes("東京")).every((c) => c.text.endsWith("。"))).toBe(true);
  });

  test("one word longer than the limit (a data URI) is cut between characters, under the limit", () => {
    const uri = `![chart](data:image/png;base64,${"iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB".repeat(200)})`;
    const chunks = chunkMarkdown(`Before.\n\n${uri}\n\nAfter.`, PAGE, { maxTokens: 128 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(128);
    expect(squash(chunks.map((c) => c.text).join(""))).toBe(squash(`Before.${uri}After.`));
  });
});

describe("overlap", () => {
  /** The longest end of `previous` that `next` starts with. */
  const carried = (previous: string, next: string) => {
    for (let n = Math.min(previous.length, next.length); n > 0; n--) {
      const tail = previous.slice(-n);
      if (next.startsWith(tail) && /^\S/.test(tail)) return tail;
    }
    return "";
  };

  test("a chunk starts with whole sentences from the end of the one before, within the overlap", () => {
    const md = `## Tides\n\n${paragraph(0, 40)}\n\n${paragraph(40, 40)}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 128, overlap: 40 });
    expect(chunks.length).toBeGreaterThan(4);
    for (let k = 1; k < chunks.length; k++) {
      const tail = carried(chunks[k - 1]!.text, chunks[k]!.text);
      expect(tail.length).toBeGreaterThan(0);
      expect(countTokens(tail)).toBeLessThanOrEqual(40);
      expect(tail).toMatch(/^Sentence number \d+ /);
      expect(chunks[k]!.tokens).toBeLessThanOrEqual(128);
    }
  });

  test("no overlap by default, and none into a new section", () => {
    const md = `## A\n\n${paragraph(0, 30)}\n\n## B\n\n${paragraph(30, 30)}`;
    const plain = chunkMarkdown(md, PAGE, { maxTokens: 128 });
    for (let k = 1; k < plain.length; k++) expect(carried(plain[k - 1]!.text, plain[k]!.text)).toBe("");
    const overlapping = chunkMarkdown(md, PAGE, { maxTokens: 128, overlap: 30 });
    const firstOfB = overlapping.findIndex((c) => c.headings[0] === "B");
    expect(overlapping[firstOfB]!.text.startsWith("## B\n\n")).toBe(true);
  });

  test("overlap never carries part of a code block", () => {
    const code = `\`\`\`sh\n${Array.from({ length: 20 }, (_, k) => `echo step ${k}`).join("\n")}\n\`\`\``;
    const md = `## Run\n\n${paragraph(0, 5)}\n\n${code}\n\n${paragraph(5, 5)}\n\n${code}\n\n${paragraph(10, 5)}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 160, overlap: 60 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(fencesBalanced(chunk.text)).toBe(true);
      expect(chunk.tokens).toBeLessThanOrEqual(160);
    }
  });
});

describe("ids", () => {
  const ids = (chunks: Chunk[]) => chunks.map((c) => c.id);

  test("the same page gives the same ids on every run; a changed text changes its id", () => {
    const md = longDocument();
    const first = chunkMarkdown(md, PAGE, { maxTokens: 200 });
    expect(ids(chunkMarkdown(md, PAGE, { maxTokens: 200 }))).toEqual(ids(first));
    expect(first[0]!.id).toMatch(/^[0-9a-f]{16}$/);
    const edited = chunkMarkdown(md.replace("Sentence number 0 ", "Sentence number zero "), PAGE, {
      maxTokens: 200,
    });
    expect(edited[0]!.id).not.toBe(first[0]!.id);
    expect(ids(edited).slice(1)).toEqual(ids(first).slice(1));
    const elsewhere = chunkMarkdown(md, { url: "https://docs.example/other" }, { maxTokens: 200 });
    expect(elsewhere[0]!.id).not.toBe(first[0]!.id);
  });

  test("an earlier section edited or inserted leaves the later sections' ids alone", () => {
    const later = `## Later\n\n${paragraph(50, 3)}\n\n### Deeper\n\n${paragraph(60, 3)}`;
    const before = chunkMarkdown(`## Early\n\n${paragraph(0, 3)}\n\n${later}`, PAGE);
    const after = chunkMarkdown(
      `## Early\n\n${paragraph(0, 4)}\n\n## Inserted\n\nNew text.\n\n${later}`,
      PAGE,
    );
    expect(after.length).toBe(before.length + 1);
    expect(ids(after).slice(-2)).toEqual(ids(before).slice(-2));
    expect(after.at(-1)!.index).toBe(before.at(-1)!.index + 1);
  });

  test("identical sections get distinct ids, the later ones suffixed in page order", () => {
    const section = "## FAQ\n\nSame answer.";
    const chunks = chunkMarkdown([section, section, "## Other\n\nx", section].join("\n\n"), PAGE);
    const base = chunks[0]!.id;
    expect(ids(chunks)).toEqual([base, `${base}-2`, chunks[2]!.id, `${base}-3`]);
    expect(new Set(ids(chunks)).size).toBe(4);
  });
});

describe("inputs", () => {
  test("empty or blank markdown gives no chunks", () => {
    expect(chunkMarkdown("", PAGE)).toEqual([]);
    expect(chunkMarkdown(" \n\n\t\n", PAGE)).toEqual([]);
  });

  test("markdown without headings is chunked with an empty heading path", () => {
    const md = `${paragraph(0, 20)}\n\n${paragraph(20, 20)}`;
    const chunks = chunkMarkdown(md, PAGE, { maxTokens: 200 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.headings).toEqual([]);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, k) => k));
    expect(chunks[0]).toMatchObject({ url: PAGE.url, title: "Guide", tokenizer: "o200k_base" });
    expect(chunkMarkdown("x", { url: PAGE.url })[0]!.title).toBe("");
  });

  test("CRLF input gives the same chunks as LF", () => {
    const md = longDocument();
    const lf = chunkMarkdown(md, PAGE, { maxTokens: 200 });
    const crlf = chunkMarkdown(md.replace(/\n/g, "\r\n"), PAGE, { maxTokens: 200 });
    expect(crlf).toEqual(lf);
    for (const chunk of crlf) expect(chunk.text).not.toContain("\r");
  });

  test("a leading byte-order mark does not hide the first heading", () => {
    const [chunk] = chunkMarkdown("\uFEFF# Title\r\n\r\nText.", PAGE);
    expect(chunk).toMatchObject({ text: "# Title\n\nText.", headings: ["Title"] });
  });

  test("a 5,000-line page is chunked in well under a second", () => {
    const lines: string[] = [];
    for (let k = 0; lines.length < 5000; k++) {
      if (k % 40 === 0) lines.push(`## Section ${k}`, "");
      if (k % 25 === 0) lines.push("```js", `const gauge${k} = read(${k});`, "```", "");
      lines.push(sentence(k), "");
    }
    const md = lines.join("\n");
    chunkMarkdown("warm up", PAGE);
    const started = performance.now();
    const chunks = chunkMarkdown(md, PAGE, { overlap: 50 });
    const elapsed = performance.now() - started;
    expect(chunks.length).toBeGreaterThan(100);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe("options", () => {
  test("out-of-bounds options are refused with invalid_request", () => {
    const refused = (options: object) => {
      try {
        chunkMarkdown("text", PAGE, options);
      } catch (error) {
        return error instanceof SiphonError ? error.type : "other";
      }
      return "accepted";
    };
    expect(refused({ maxTokens: 31 })).toBe("invalid_request");
    expect(refused({ maxTokens: 8193 })).toBe("invalid_request");
    expect(refused({ maxTokens: 100.5 })).toBe("invalid_request");
    expect(refused({ maxTokens: 100, overlap: 50 })).toBe("invalid_request");
    expect(refused({ overlap: -1 })).toBe("invalid_request");
    expect(refused({ tokenizer: "bert" })).toBe("invalid_request");
    expect(refused({ maxTokens: 32, overlap: 15 })).toBe("accepted");
    expect(refused({ maxTokens: 8192 })).toBe("accepted");
  });

  test("another tokenizer counts in its own encoding and says so", () => {
    const tokenizer: TokenizerName = "cl100k_base";
    const chunks = chunkMarkdown(longDocument(), PAGE, { maxTokens: 200, tokenizer });
    for (const chunk of chunks) {
      expect(chunk.tokenizer).toBe(tokenizer);
      expect(chunk.tokens).toBe(countTokens(chunk.text, tokenizer));
      expect(chunk.tokens).toBeLessThanOrEqual(200);
    }
  });
});
