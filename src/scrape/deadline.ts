import { SiphonError } from "../errors.ts";

/**
 * Runs `run` with a signal that aborts after `ms` (or when `outer` aborts), and answers
 * SiphonError timeout as soon as the time is up, even when the work does not stop at once.
 */
export async function withDeadline<T>(
  ms: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new SiphonError("timeout", `The scrape did not finish within its timeout of ${ms} ms`, {
          hint: "Raise timeout, or ask for less (waitFor, actions and screenshots need the browser).",
        }),
      );
    }, ms);
  });
  try {
    return await Promise.race([run(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}
