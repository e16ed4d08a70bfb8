import { createConsola } from "consola";
import { type ErrorBody, errorBody, type SiphonError, toSiphonError } from "../src/errors.ts";

/** Logs go to stderr so stdout carries only content or JSON. */
export const log = createConsola({
  stdout: process.stderr,
  stderr: process.stderr,
  formatOptions: { colors: !process.env.NO_COLOR && process.stderr.isTTY === true, date: false },
});

export function setQuiet(quiet: boolean): void {
  // consola level 0 prints errors only.
  if (quiet) log.level = 0;
}

/** The error object the CLI prints with --json: SPEC format B without request metadata. */
export function errorJson(error: SiphonError): { success: false; error: ErrorBody } {
  return { success: false, error: errorBody(error) };
}

/** Prints a failure: the JSON error object on stdout with --json, one line on stderr otherwise. */
export function reportError(raw: unknown, json: boolean): number {
  const error = toSiphonError(raw);
  if (json) process.stdout.write(`${JSON.stringify(errorJson(error))}\n`);
  const detail =
    error.type === "internal_error" && process.env.SIPHON_DEBUG ? `\n${(raw as Error)?.stack}` : "";
  log.error(`${error.message}${error.hint ? ` (${error.hint})` : ""} [${error.type}]${detail}`);
  return error.exitCode;
}

/** Writes to stdout and resolves once the data is flushed (large outputs, pipes). */
export function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
