/**
 * Refuses what a command line says that its command does not take, before citty parses it:
 * citty (node:util parseArgs with strict off) turns an unknown `--flag` into a boolean, and a
 * value after it into one more positional, so `fetch URL --timeut 2000` would fetch "2000" too.
 * Works from each command's own `args`, so every command and subcommand is checked the same way.
 */
import type { ArgDef, ArgsDef, CommandDef, CommandMeta, PositionalArgDef } from "citty";
import { closest } from "../src/closest.ts";
import { SiphonError } from "../src/errors.ts";

/** A citty value that may be given as itself, a promise, or a function returning either. */
export async function resolved<T>(value: T | Promise<T> | (() => T | Promise<T>)): Promise<T> {
  return typeof value === "function" ? (value as () => T | Promise<T>)() : value;
}

const variadic = new WeakSet<object>();

/**
 * Marks a positional as taking every further word (several URLs, an unquoted question): the
 * command reads them from `args._`. Without the mark a command takes one word per positional.
 */
export function many<T extends PositionalArgDef>(arg: T): T {
  variadic.add(arg);
  return arg;
}

/** Whether `arg` takes every further word (see many). */
export const takesMany = (arg: ArgDef): boolean => variadic.has(arg);

const camel = (name: string) => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** " did you mean X?" when there is an X, else nothing. */
const suggestion = (name: string | undefined, prefix = "") =>
  name ? `; did you mean ${prefix}${name}?` : "";

interface Flag {
  name: string;
  def: ArgDef;
}

/** A command's flags by every name citty answers to: `--max-depth`, `--maxDepth`, each alias. */
function flagTable(args: ArgsDef): Map<string, Flag> {
  const table = new Map<string, Flag>();
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const flag = { name, def };
    table.set(name, flag);
    table.set(camel(name), flag);
    const alias = "alias" in def ? def.alias : undefined;
    for (const a of typeof alias === "string" ? [alias] : (alias ?? [])) table.set(a, flag);
  }
  return table;
}

/** A command's flags as typed (without the dashes): each named one, and --no-x for booleans on by default. */
export function flagsOf(args: ArgsDef): { name: string; description: string }[] {
  const flags: { name: string; description: string }[] = [];
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    flags.push({ name, description: def.description ?? "" });
    if (def.type === "boolean" && def.default === true) flags.push({ name: `no-${name}`, description: "" });
  }
  return flags;
}

/** The names to suggest from: each flag's long name (and --no-X where a boolean defaults to true). */
const longNames = (args: ArgsDef): string[] => flagsOf(args).map((flag) => flag.name);

const BOOLEAN_VALUES = new Set(["true", "false"]);

/** The parts of a command line `check` walks: the command, its path for messages, its args. */
interface Scope {
  path: string;
  args: ArgsDef;
  flags: Map<string, Flag>;
}

function refuse(message: string, scope: Scope): never {
  throw new SiphonError("invalid_request", message, { hint: `See ${scope.path} --help.` });
}

/**
 * Whether `token` would be read as a flag rather than as the previous flag's value: anything
 * from `--` on, or a short flag this command has. A lone `-` (stdin) and `-5` are values.
 */
function looksLikeFlag(token: string, scope: Scope): boolean {
  if (token.startsWith("--")) return true;
  return /^-[a-zA-Z]/.test(token) && scope.flags.has(token.slice(1, 2));
}

/**
 * Checks one flag token at `argv[i]`; returns how many tokens it used (1, or 2 with a value).
 * Throws SiphonError invalid_request naming the flag and the closest known one.
 */
function checkLong(argv: string[], i: number, scope: Scope): number {
  const token = argv[i] as string;
  const eq = token.indexOf("=");
  const name = token.slice(2, eq === -1 ? undefined : eq);
  const value = eq === -1 ? undefined : token.slice(eq + 1);
  const flag = scope.flags.get(name);
  if (!flag) {
    const negated = name.startsWith("no-") ? scope.flags.get(name.slice(3)) : undefined;
    if (negated?.def.type === "boolean" && value === undefined) return 1;
    if (negated) refuse(`--${name}: only an on/off flag can be turned off with --no-`, scope);
    refuse(`unknown flag --${name}${suggestion(closest(name, longNames(scope.args)), "--")}`, scope);
  }
  if (flag.def.type === "boolean") {
    if (value !== undefined && !BOOLEAN_VALUES.has(value.toLowerCase()))
      refuse(`--${flag.name} takes no value (or =true, =false), got "${token}"`, scope);
    return 1;
  }
  if (value !== undefined) return 1;
  const next = argv[i + 1];
  if (next === undefined || looksLikeFlag(next, scope))
    refuse(`--${flag.name} needs a value${flag.def.valueHint ? ` (${flag.def.valueHint})` : ""}`, scope);
  return 2;
}

/** Checks a group of short flags (`-q`, `-o DIR`, `-odir`, `-qo DIR`); returns the tokens used. */
function checkShort(argv: string[], i: number, scope: Scope): number {
  const token = argv[i] as string;
  for (let c = 1; c < token.length; c++) {
    const letter = token[c] as string;
    const flag = scope.flags.get(letter);
    if (!flag || letter === "=") {
      const shorts = [...scope.flags.keys()].filter((k) => k.length === 1).map((k) => `-${k}`);
      refuse(
        `unknown flag -${letter}${token.length > 2 ? ` in ${token}` : ""}${shorts.length ? ` (this command's short flags: ${shorts.join(", ")})` : ""}`,
        scope,
      );
    }
    if (flag.def.type === "boolean") continue;
    // A value flag takes the rest of the group, or else the next word.
    if (c < token.length - 1) return 1;
    const next = argv[i + 1];
    if (next === undefined || looksLikeFlag(next, scope)) refuse(`-${letter} needs a value`, scope);
    return 2;
  }
  return 1;
}

/** What the command takes as words: its positionals' names, and whether the last takes many. */
function positionalsOf(args: ArgsDef): { names: string[]; many: boolean } {
  const positional = Object.entries(args).filter(([, def]) => def.type === "positional");
  return {
    names: positional.map(([name]) => name.toUpperCase()),
    many: positional.some(([, def]) => takesMany(def)),
  };
}

/**
 * Refuses, for `cmd` run as `path` with `argv`, any flag it does not declare (naming the closest
 * one it does), a boolean given a value other than true/false, a value flag with no value, and
 * words beyond its positionals; a command with subcommands is checked down to the one named.
 * `--` ends the flags. Help flags are the caller's (main.ts) to handle first.
 * Throws SiphonError invalid_request (exit 2).
 */
export async function checkArgs(cmd: CommandDef, argv: string[], path: string): Promise<void> {
  const args = ((await resolved(cmd.args)) ?? {}) as ArgsDef;
  const scope: Scope = { path, args, flags: flagTable(args) };
  const subCommands = await resolved(cmd.subCommands);
  const words: string[] = [];
  for (let i = 0; i < argv.length; ) {
    const token = argv[i] as string;
    if (token === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (subCommands && !token.startsWith("-")) {
      const sub = subCommands[token];
      if (!sub) {
        const names = Object.keys(subCommands);
        throw new SiphonError(
          "invalid_request",
          `unknown command ${path} ${token}${suggestion(closest(token, names), `${path} `)}`,
          { hint: `${path} takes ${names.join(", ")}.` },
        );
      }
      const loaded = (await resolved(sub)) as CommandDef;
      return checkArgs(loaded, argv.slice(i + 1), `${path} ${token}`);
    }
    if (token.startsWith("--")) i += checkLong(argv, i, scope);
    else if (token.length > 1 && token.startsWith("-")) i += checkShort(argv, i, scope);
    else {
      words.push(token);
      i++;
    }
  }
  if (subCommands) {
    const names = Object.keys(subCommands);
    throw new SiphonError("invalid_request", `${path} needs a command: ${names.join(", ")}`, {
      hint: `See ${path} --help.`,
    });
  }
  const { names, many: takesRest } = positionalsOf(args);
  if (!takesRest && words.length > names.length) {
    const extra = words[names.length] as string;
    const takes = names.length ? `takes one ${names.join(", one ")}` : "takes no arguments";
    refuse(
      `unexpected argument "${extra}": ${path} ${takes}${names.length ? " (a flag's value goes right after the flag: --name VALUE or --name=VALUE)" : ""}`,
      scope,
    );
  }
}

/** A command's name and description, resolved. */
export async function metaOf(cmd: Pick<CommandDef, "meta">): Promise<CommandMeta> {
  return ((await resolved(cmd.meta)) ?? {}) as CommandMeta;
}
