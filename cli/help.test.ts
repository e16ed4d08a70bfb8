import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import crawl from "./commands/crawl.ts";
import { renderHelp, wrap } from "./help.ts";

const home = mkdtempSync(join(tmpdir(), "siphon-help-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("help layout", () => {
  test("wrap breaks only between words, and gives an over-long word a line of its own", () => {
    const text = "Seconds to wait after each page of a host before the next one of that host";
    const lines = wrap(text, 20);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    expect(words(lines.join(" "))).toEqual(words(text));
    expect(wrap(`a ${"x".repeat(30)} b`, 10)).toEqual(["a", "x".repeat(30), "b"]);
  });

  test("crawl's help at 60 and 120 columns: every line fits, no trailing space, every word whole", async () => {
    for (const width of [60, 120]) {
      const help = await renderHelp(crawl, "siphon crawl", { width, colour: false });
      for (const line of help.split("\n")) {
        expect(line.length).toBeLessThanOrEqual(width);
        expect(line).not.toMatch(/\s$/);
      }
      const flat = help.replace(/\n\s+/g, " ");
      expect(flat).toContain("Seconds to wait after each page of a host before the next one of that host");
    }
    // The wider terminal is used: descriptions wrap less.
    const narrow = await renderHelp(crawl, "siphon crawl", { width: 60, colour: false });
    const wide = await renderHelp(crawl, "siphon crawl", { width: 120, colour: false });
    expect(wide.split("\n").length).toBeLessThan(narrow.split("\n").length);
  });

  // `script` runs the CLI on a pseudo-terminal of a chosen width, as a person's terminal would be.
  test.skipIf(!Bun.which("script"))("on a terminal, help is laid out for its width, in colour", async () => {
    const main = join(import.meta.dir, "main.ts");
    const proc = Bun.spawn(
      ["script", "-qec", `stty cols 100; '${process.execPath}' '${main}' help crawl`, "/dev/null"],
      { env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, TERM: "xterm-256color" }, stdout: "pipe" },
    );
    const raw = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(raw).toContain("\x1b[");
    const lines = Bun.stripANSI(raw).replaceAll("\r", "").split("\n");
    const longest = Math.max(...lines.map((line) => line.length));
    expect(longest).toBeLessThanOrEqual(100);
    expect(longest).toBeGreaterThan(80);
  });
});
