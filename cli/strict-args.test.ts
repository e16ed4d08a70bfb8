import { describe, expect, test } from "bun:test";
import { defineCommand } from "citty";
import { closest } from "../src/closest.ts";
import { SiphonError } from "../src/errors.ts";
import { checkArgs, many } from "./strict-args.ts";

const crawl = defineCommand({
  args: {
    url: { type: "positional", required: true },
    limit: { type: "string" },
    "max-depth": { type: "string" },
    "only-main-content": { type: "boolean" },
    cache: { type: "boolean", default: true },
    output: { type: "string", alias: "o" },
    quiet: { type: "boolean", alias: "q" },
  },
});
const search = defineCommand({
  args: { query: many({ type: "positional", required: true }), count: { type: "string" } },
});
const keys = defineCommand({
  subCommands: { create: defineCommand({ args: { name: { type: "string" } } }), list: defineCommand({}) },
});

/** The message checkArgs refuses `argv` with, or undefined when it accepts it. */
async function refusal(cmd: typeof crawl | typeof search | typeof keys, argv: string[]) {
  try {
    await checkArgs(cmd as never, argv, "siphon x");
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(SiphonError);
    expect((error as SiphonError).type).toBe("invalid_request");
    return (error as SiphonError).message;
  }
}

describe("checkArgs", () => {
  test("accepts every form citty reads", async () => {
    for (const argv of [
      ["u", "--limit", "5"],
      ["u", "--limit=5"],
      ["u", "--limit", "-5"],
      ["u", "--limit="],
      ["u", "--maxDepth", "2"],
      ["u", "--only-main-content=false"],
      ["u", "--no-cache"],
      ["u", "--no-only-main-content"],
      ["u", "-o", "dir"],
      ["u", "-odir"],
      ["u", "-qo", "dir"],
      ["-", "--quiet"],
      ["--", "--not-a-flag"],
    ]) {
      expect(await refusal(crawl, argv), argv.join(" ")).toBeUndefined();
    }
    expect(await refusal(search, ["tide", "mills", "--count", "3", "today"])).toBeUndefined();
    expect(await refusal(keys, ["create", "--name", "ci"])).toBeUndefined();
  });

  test("refuses unknown flags with the closest one, and what citty would misread", async () => {
    expect(await refusal(crawl, ["u", "--only-main"])).toBe(
      "unknown flag --only-main; did you mean --only-main-content?",
    );
    expect(await refusal(crawl, ["u", "--limt", "5"])).toBe("unknown flag --limt; did you mean --limit?");
    expect(await refusal(crawl, ["u", "--bogus-flag"])).toBe("unknown flag --bogus-flag");
    expect(await refusal(crawl, ["u", "--no-cach"])).toBe("unknown flag --no-cach; did you mean --no-cache?");
    expect(await refusal(crawl, ["u", "-x"])).toContain("unknown flag -x");
    expect(await refusal(crawl, ["u", "-q=x"])).toContain("unknown flag -=");
    expect(await refusal(crawl, ["u", "--limit"])).toBe("--limit needs a value");
    expect(await refusal(crawl, ["u", "--limit", "--quiet"])).toBe("--limit needs a value");
    expect(await refusal(crawl, ["u", "-o"])).toBe("-o needs a value");
    expect(await refusal(crawl, ["u", "--no-limit"])).toContain("only an on/off flag");
    expect(await refusal(crawl, ["u", "--quiet=yes"])).toContain("--quiet takes no value");
    expect(await refusal(crawl, ["u", "2000"])).toContain(
      'unexpected argument "2000": siphon x takes one URL',
    );
    expect(await refusal(crawl, ["u", "--", "extra"])).toContain('unexpected argument "extra"');
    expect(await refusal(keys, ["crate"])).toBe(
      "unknown command siphon x crate; did you mean siphon x create?",
    );
    expect(await refusal(keys, [])).toBe("siphon x needs a command: create, list");
    expect(await refusal(keys, ["create", "--nam", "ci"])).toBe("unknown flag --nam; did you mean --name?");
  });

  test("closest prefers a flag that starts with the word, then the fewest edits within a third of it", () => {
    const known = ["only-main-content", "max-depth", "limit", "format", "formats"];
    expect(closest("only-main", known)).toBe("only-main-content");
    expect(closest("form", known)).toBe("format");
    expect(closest("max-dpeth", known)).toBe("max-depth");
    expect(closest("bogus", known)).toBeUndefined();
    expect(closest("x", known)).toBeUndefined();
  });
});
