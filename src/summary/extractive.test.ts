import { describe, expect, test } from "bun:test";
import { extractiveSummary, SUMMARY_MAX_CHARS } from "./extractive.ts";

const PAGE = `# Tide mills

Tide mills are water mills driven by the rise and fall of the tide in an estuary.

[Home](/) [About](/about)

A dam with a sluice is built across a tidal inlet, and the tide fills the mill pond behind it.
When the tide goes out, the water in the mill pond turns the mill wheel of the tide mill.
Cookies help us deliver our services.
The oldest known tide mills date from the early Middle Ages, on the coasts of Ireland.

## Tide mills today

Several tide mills in Europe still grind flour as museums, and the mill pond is a nature reserve.

\`\`\`
const mill = "code is not prose and never summarised here";
\`\`\`
`;

describe("extractiveSummary", () => {
  test("picks the sentences that carry the page's recurring words, in page order", () => {
    const summary = extractiveSummary(PAGE);
    expect(summary.startsWith("Tide mills are water mills driven by the rise and fall of the tide")).toBe(
      true,
    );
    expect(summary).toContain("the water in the mill pond turns the mill wheel");
    expect(summary).not.toContain("Cookies");
    expect(summary).not.toContain("[Home]");
    expect(summary).not.toContain("code is not prose");
    // Three sentences, in the order of the page.
    expect(summary.split(/(?<=\.)\s/).length).toBe(3);
  });

  test("stays within its length and answers empty for a page without sentences", () => {
    const long = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} talks about tide mills and ponds at length.`,
    );
    expect(extractiveSummary(long.join(" ")).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(extractiveSummary("# Title\n\n[Home](/)\n\n- one\n- two")).toBe("");
  });
});
