import { SiphonError } from "../../src/errors.ts";
import { withDeadline } from "../../src/scrape/index.ts";

/**
 * Runs `run` within Firecrawl's `timeout` (ms) for a map or a search, as a scrape's timeout is
 * kept: past it the answer is a timeout (408) naming the operation.
 */
export async function within<T>(
  ms: number,
  what: string,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await withDeadline(ms, outer, run);
  } catch (error) {
    if (error instanceof SiphonError && error.type === "timeout") {
      throw new SiphonError("timeout", `The ${what} did not finish within its timeout of ${ms} ms`, {
        hint: "Raise timeout, or ask for less.",
      });
    }
    throw error;
  }
}
