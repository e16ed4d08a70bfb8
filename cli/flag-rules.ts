import { SiphonError } from "../src/errors.ts";

/** Whether a flag was given (a boolean turned off with --no-X counts as given). */
const given = (args: Record<string, unknown>, name: string) => args[name] !== undefined;

/**
 * Refuses `flag` given without `needed`, where it would otherwise be ignored (`--secret`
 * without `--webhook`). `why` says what the flag is for.
 * Throws SiphonError invalid_request.
 */
export function requireWith(args: Record<string, unknown>, flag: string, needed: string, why = ""): void {
  if (given(args, flag) && !given(args, needed)) {
    throw new SiphonError("invalid_request", `--${flag} goes with --${needed}${why ? `: ${why}` : ""}`);
  }
}

/**
 * Refuses `a` and `b` given together, where one would be ignored (`-o DIR` writes files, so
 * `--json` would print nothing). `why` says which does what.
 * Throws SiphonError invalid_request.
 */
export function refuseTogether(args: Record<string, unknown>, a: string, b: string, why = ""): void {
  if (given(args, a) && given(args, b)) {
    throw new SiphonError("invalid_request", `--${a} and --${b} do not go together${why ? `: ${why}` : ""}`);
  }
}
