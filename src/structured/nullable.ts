/**
 * A schema whose every property also accepts null, all the way down: what a heuristic result is
 * checked against, since what the page does not say is null there rather than invented.
 */
export function nullable(schema: unknown): unknown {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const node = { ...(schema as Record<string, unknown>) };
  if (node.properties && typeof node.properties === "object") {
    node.properties = Object.fromEntries(
      Object.entries(node.properties as Record<string, unknown>).map(([name, child]) => [
        name,
        { anyOf: [nullable(child), { type: "null" }] },
      ]),
    );
  }
  if (node.items && typeof node.items === "object") node.items = nullable(node.items);
  return node;
}
