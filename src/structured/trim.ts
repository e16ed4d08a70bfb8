import { estimateTokens } from "../llm/index.ts";
import { rankPassages, splitPassages } from "../passages/index.ts";

/** Tokens of page text an extraction prompt carries at most (about 48,000 characters). */
export const EXTRACT_TOKEN_BUDGET = 12_000;

/** The words a schema asks for: property names (camelCase and snake_case split), titles and descriptions. */
export function schemaWords(schema: unknown, out: string[] = []): string[] {
  if (!schema || typeof schema !== "object") return out;
  const node = schema as Record<string, unknown>;
  for (const key of ["title", "description"])
    if (typeof node[key] === "string") out.push(node[key] as string);
  const properties = node.properties;
  if (properties && typeof properties === "object") {
    for (const [name, child] of Object.entries(properties)) {
      out.push(name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " "));
      schemaWords(child, out);
    }
  }
  if (node.items) schemaWords(node.items, out);
  return out;
}

/**
 * The page's markdown cut to `budget` tokens, keeping what matters to the request: passages are
 * ranked by BM25 against the prompt and the schema's words, the best kept until the budget is
 * spent, and put back in page order. A page within the budget is sent whole.
 */
export function trimForExtraction(
  markdown: string,
  want: { prompt?: string; schema?: unknown },
  budget = EXTRACT_TOKEN_BUDGET,
): { text: string; trimmed: boolean } {
  if (estimateTokens(markdown) <= budget) return { text: markdown, trimmed: false };
  const passages = splitPassages(markdown, 0);
  const query = [want.prompt ?? "", ...schemaWords(want.schema)].join(" ");
  const ranked = rankPassages(query, passages);
  // Passages no word matched come last, in page order: the budget may still have room for them.
  const order = [
    ...ranked.map((r) => r.passage),
    ...passages.filter((p) => !ranked.some((r) => r.passage === p)),
  ];
  const kept = new Set<number>();
  let used = 0;
  // A passage costs its text and its heading, which is written once per run of passages under it.
  for (const passage of order) {
    const cost =
      estimateTokens(passage.text) + (passage.heading ? estimateTokens(passage.heading) + 2 : 0) + 1;
    if (used + cost > budget) continue;
    kept.add(passage.position);
    used += cost;
  }
  let heading = "";
  const parts: string[] = [];
  for (const passage of passages) {
    if (!kept.has(passage.position)) continue;
    if (passage.heading && passage.heading !== heading) parts.push(`## ${passage.heading}\n${passage.text}`);
    else parts.push(passage.text);
    heading = passage.heading;
  }
  return { text: parts.join("\n\n"), trimmed: true };
}
