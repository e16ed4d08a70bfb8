/**
 * Freezes `value` and everything in it, and returns it. A validated input memoised for the
 * requests that send the same thing (a route's query, a scrape's plan) is shared by them, and
 * frozen so that none can change what the next one reads; being frozen is also what tells the
 * pipeline an input may be memoised by identity.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
