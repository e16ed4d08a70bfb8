import { statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ConsolaInstance } from "consola";
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

let consola: ConsolaInstance | undefined;
/** A level set before consola was made, given to it when it is. */
let pendingLevel: number | undefined;

/**
 * The CLI's consola, made on first use: loading consola (node:tty, its reporters) is a good part
 * of a short command's start-up, and a run that logs nothing (`siphon fetch URL`) skips it.
 * Loaded with require because a log call is synchronous.
 */
function logger(): ConsolaInstance {
  if (!consola) {
    const { createConsola } = require("consola") as typeof import("consola");
    consola = createConsola({
      stdout: logStream as unknown as NodeJS.WriteStream,
      stderr: logStream as unknown as NodeJS.WriteStream,
      formatOptions: { colors: colourFor(process.stderr), date: false },
    });
    if (pendingLevel !== undefined) consola.level = pendingLevel;
  }
  return consola;
}

/**
 * Whether a debug line would be printed, decided as consola decides its level (CONSOLA_LEVEL,
 * else 4 when DEBUG is set and not "false", else below 4), so that a debug line nobody sees
 * does not load consola.
 */
function debugShown(env: Record<string, string | undefined> = process.env): boolean {
  if (pendingLevel !== undefined) return pendingLevel >= 4;
  if (env.CONSOLA_LEVEL) return Number.parseInt(env.CONSOLA_LEVEL, 10) >= 4;
  return Boolean(env.DEBUG) && env.DEBUG !== "false";
}

type LogLine = (message: unknown, ...more: unknown[]) => void;

/** Logs go to stderr so stdout carries only content or JSON; consola formats them. */
export const log: {
  error: LogLine;
  warn: LogLine;
  info: LogLine;
  success: LogLine;
  debug: LogLine;
  /** consola's level: 0 errors only, 3 info (the default), 4 debug. */
  level: number;
} = {
  error: (...args) => logger().error(...args),
  warn: (...args) => logger().warn(...args),
  info: (...args) => logger().info(...args),
  success: (...args) => logger().success(...args),
  debug: (...args) => {
    if (consola || debugShown()) logger().debug(...args);
  },
  get level() {
    return logger().level;
  },
  set level(level: number) {
    if (consola) consola.level = level;
    else pendingLevel = level;
  },
};

export function setQuiet(quiet: boolean): void {
  // consola level 0 prints errors only.
  if (quiet) log.level = 0;
}

/** The error object the CLI prints with --json: SPEC format B without request metadata. */
export function errorJson(error: SiphonError): { success: false; error: ErrorBody } {
  return { success: false, error: errorBody(error) };
}

/** Whether anything is at `path` (a path through a file is nothing). */
const exists = (path: string): boolean => {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
};

const FILE_ERRORS = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EACCES", "EPERM", "EROFS"]);

/**
 * A file system failure on a path the user gave (an output file in a folder that does not
 * exist, a folder given as a file, no permission) as invalid_request saying what is wrong;
 * undefined for anything else. Such a failure is the user's to fix, never "can be retried".
 */
export function fileError(raw: unknown, action: "write" | "open" = "open"): SiphonError | undefined {
  const { code, path } = (raw ?? {}) as { code?: unknown; path?: unknown };
  if (typeof code !== "string" || typeof path !== "string" || !FILE_ERRORS.has(code)) return undefined;
  const folder = dirname(resolve(path));
  const folderMissing = !exists(folder);
  const what =
    code === "ENOENT"
      ? folderMissing
        ? `the folder ${folder} does not exist`
        : "no such file"
      : code === "ENOTDIR"
        ? `${folder} is not a folder`
        : code === "EISDIR"
          ? "it is a folder; give a file name"
          : `permission denied (${code})`;
  return new SiphonError("invalid_request", `cannot ${action} ${path}: ${what}`, {
    hint: "Give a file in a folder that exists and that you may use.",
    cause: raw,
  });
}

/**
 * Checks before any work that `path` can take an output file: its folder exists and is a
 * folder, and the path is not a folder itself (the fetch would be lost at the end otherwise).
 * Throws SiphonError invalid_request naming what is wrong.
 */
export function checkOutputPath(path: string): void {
  const folder = dirname(resolve(path));
  const stat = (target: string) => {
    try {
      return statSync(target, { throwIfNoEntry: false });
    } catch (error) {
      // A path through a file (ENOTDIR), or a folder that may not be read.
      throw fileError({ code: (error as { code?: string }).code, path }, "write") ?? error;
    }
  };
  const parent = stat(folder);
  if (!parent) throw fileError({ code: "ENOENT", path }, "write");
  if (!parent.isDirectory()) throw fileError({ code: "ENOTDIR", path }, "write");
  if (stat(path)?.isDirectory()) throw fileError({ code: "EISDIR", path }, "write");
}

/** Writes an output file; a failure to write it is invalid_request saying why (fileError). */
export async function writeOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  try {
    await writeFile(path, data);
  } catch (error) {
    throw fileError(error, "write") ?? error;
  }
}

/** Prints a failure: the JSON error object on stdout with --json, one line on stderr otherwise. */
export function reportError(raw: unknown, json: boolean): number {
  const error = toSiphonError(fileError(raw) ?? raw);
  if (json) process.stdout.write(`${JSON.stringify(errorJson(error))}\n`);
  const detail =
    error.type === "internal_error" && process.env.SIPHON_DEBUG ? `\n${(raw as Error)?.stack}` : "";
  log.error(`${error.message}${error.hint ? ` (${error.hint})` : ""} [${error.type}]${detail}`);
  return error.exitCode;
}

/**
 * Writes to stdout and resolves once the data is written (large outputs, pipes). Bun.write goes to
 * the file descriptor itself: setting up process.stdout's stream costs a short run several ms.
 */
export async function writeStdout(text: string): Promise<void> {
  await Bun.write(Bun.stdout, text);
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
