import { createConsola } from "consola";
import { type ErrorBody, errorBody, SiphonError, toSiphonError } from "../src/errors.ts";

/**
 * Whether text written to `stream` may carry ANSI colour codes, by the
 * common conventions: FORCE_COLOR set (and not "0" or "false") forces colour
 * and takes precedence, as in Node; NO_COLOR set (not empty) or TERM=dumb
 * turns it off; otherwise only a terminal gets colour.
 */
export function colourFor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined> = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force) return force !== "0" && force !== "false";
  if (env.NO_COLOR || env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

/**
 * `text` as it may be written to `stream`: without colour codes unless
 * colourFor allows them. citty's usage renderer and consola colour by their
 * own rules (stdout's terminal, read at import), so the CLI's output passes
 * through here instead of relying on them.
 */
export function forStream(stream: { isTTY?: boolean }, text: string): string {
  return colourFor(stream) ? text : Bun.stripANSI(text);
}

/** stderr as consola writes to it: each line through forStream. */
const logStream = {
  write: (text: string) => process.stderr.write(forStream(process.stderr, text)),
  get columns() {
    return process.stderr.columns;
  },
};

/** Logs go to stderr so stdout carries only content or JSON. */
export const log = createConsola({
  stdout: logStream as unknown as NodeJS.WriteStream,
  stderr: logStream as unknown as NodeJS.WriteStream,
  formatOptions: { colors: colourFor(process.stderr), date: false },
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

/** The events of a written answer's stream (answer, research): text chunks, an error, its end. */
type TextEvent =
  | { type: "chunk"; text: string }
  | { type: "error"; error: { type: string; message: string } }
  | { type: "done" };

/**
 * Prints a written answer's text chunks as they come and ends the line; an error event is thrown
 * as its SiphonError; other events go to `other`. Resolves with the done event.
 */
export async function printTextStream<E extends { type: string }>(
  events: AsyncIterable<unknown>,
  other: (event: Exclude<E, { type: "chunk" | "error" | "done" }>) => void = () => {},
): Promise<Extract<E, { type: "done" }>> {
  let last = "";
  for await (const raw of events) {
    const event = raw as TextEvent;
    if (event.type === "chunk") {
      last = event.text;
      await writeStdout(event.text);
    } else if (event.type === "error") {
      if (last) await writeStdout("\n");
      throw new SiphonError(event.error.type as never, event.error.message);
    } else if (event.type === "done") {
      if (!last.endsWith("\n")) await writeStdout("\n");
      return raw as Extract<E, { type: "done" }>;
    } else other(raw as Exclude<E, { type: "chunk" | "error" | "done" }>);
  }
  throw new SiphonError("answer_failed", "The stream ended without its done event");
}
