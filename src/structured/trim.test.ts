import { describe, expect, test } from "bun:test";
import { estimateTokens } from "../llm/index.ts";
import { schemaWords, trimForExtraction } from "./trim.ts";

const filler = (i: number) =>
  `Paragraph ${i} talks about the weather, the harbour and the ferry timetable of the island in summer.`;

/** A long page: 400 filler paragraphs, and the price under its own heading near the end. */
function longPage(): string {
  const parts = Array.from({ length: 400 }, (_, i) => filler(i));
  parts.splice(380, 0, "## Pricing", "The season ticket costs 129 euros and includes the ferry.");
  return parts.join("\n\n");
}

describe("trimForExtraction", () => {
  test("a page within the budget is sent whole", () => {
    const page = "# Title\n\nShort page.";
    expect(trimForExtraction(page, { prompt: "price" })).toEqual({ text: page, trimmed: false });
  });

  test("a long page is cut to the budget, keeping what the schema asks for, in page order", () => {
    const page = longPage();
    const budget = 500;
    expect(estimateTokens(page)).toBeGreaterThan(budget * 10);
    const schema = { type: "object", properties: { ticketPrice: { type: "number" } } };
    const { text, trimmed } = trimForExtraction(page, { schema }, budget);
    expect(trimmed).toBe(true);
    expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
    expect(text).toContain("## Pricing\nThe season ticket costs 129 euros");
    // Page order: the filler kept before the price comes before it.
    const kept = [...text.matchAll(/Paragraph (\d+)/g)].map((m) => Number(m[1]));
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
  });

  test("a prompt steers what is kept as the schema does", () => {
    const { text } = trimForExtraction(longPage(), { prompt: "what does the season ticket cost" }, 300);
    expect(text).toContain("129 euros");
  });

  test("schemaWords reads names (camelCase and snake_case split), titles and descriptions, nested", () => {
    const words = schemaWords({
      title: "Offer",
      properties: {
        unitPrice: { type: "number", description: "in euros" },
        seller: { type: "object", properties: { company_name: { type: "string" } } },
        tags: { type: "array", items: { type: "object", properties: { label: {} } } },
      },
    });
    expect(words).toEqual(["Offer", "unit Price", "in euros", "seller", "company name", "tags", "label"]);
  });
});
