/**
 * A command's help, laid out for the width it is read at. citty's renderUsage pads every row to
 * its longest line (one long description makes every row ~220 columns), which a terminal then
 * wraps mid-word; this renders the same content from the same `meta` and `args`, each
 * description wrapped at word boundaries under its own column, with no trailing spaces.
 */
import type { ArgDef, ArgsDef, CommandDef } from "citty";
import { EXAMPLES } from "./examples.ts";
import { metaOf, resolved, takesMany } from "./strict-args.ts";

/** The width help is laid out for when stdout is not a terminal: what a pager or a file shows. */
export const PIPE_COLUMNS = 80;

/** Below this many columns for descriptions, they go under their flag instead of beside it. */
const MIN_DESCRIPTION = 24;

/** The most a flag column takes of the width; longer flags put their description below. */
const MAX_FLAG_SHARE = 0.4;

interface Style {
  heading(text: string): string;
  name(text: string): string;
  dim(text: string): string;
}

const plain: Style = { heading: (t) => t, name: (t) => t, dim: (t) => t };
const coloured: Style = {
  heading: (t) => `\x1b[4m\x1b[1m${t}\x1b[22m\x1b[24m`,
  name: (t) => `\x1b[36m${t}\x1b[39m`,
  dim: (t) => `\x1b[90m${t}\x1b[39m`,
};

/**
 * `text` as lines of at most `width` characters, broken only between words (a word longer than
 * the width gets a line of its own rather than being cut).
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}

/** Rows of (left, right) as an indented two-column list, each right cell wrapped to the width. */
function columns(rows: [string, string][], width: number, style: Style): string[] {
  const indent = 2;
  const gap = 2;
  const widest = Math.max(...rows.map(([left]) => left.length));
  const flagWidth = Math.min(widest, Math.floor(width * MAX_FLAG_SHARE));
  const beside = width - indent - flagWidth - gap >= MIN_DESCRIPTION;
  const descIndent = indent + flagWidth + gap;
  const descWidth = width - descIndent;
  const out: string[] = [];
  for (const [left, right] of rows) {
    // A word too long for the column (a JSON example) moves the description under its flag.
    const longest = Math.max(0, ...right.split(/\s+/).map((word) => word.length));
    const under = !beside || left.length > flagWidth || longest > descWidth;
    const at = under ? indent + 4 : descIndent;
    const lines = right ? wrap(right, under ? width - at : descWidth) : [];
    const head = " ".repeat(indent) + style.name(left);
    if (!under && lines.length)
      out.push(`${head}${" ".repeat(flagWidth - left.length + gap)}${lines.shift()}`);
    else out.push(head);
    for (const line of lines) out.push(`${" ".repeat(at)}${line}`);
  }
  return out;
}

const valueHint = (name: string, def: ArgDef) =>
  def.type === "boolean" || def.type === "positional"
    ? ""
    : `=<${def.valueHint ?? (def.type === "enum" && def.options?.length ? def.options.join("|") : name)}>`;

const aliasesOf = (def: ArgDef): string[] => {
  const alias = "alias" in def ? def.alias : undefined;
  return typeof alias === "string" ? [alias] : (alias ?? []);
};

const dash = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);

/** The option rows of `args`: each flag with its aliases, and --no-X for a boolean that is on by default. */
function optionRows(args: ArgsDef): [string, string][] {
  const rows: [string, string][] = [];
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const names = [...aliasesOf(def).map(dash), `--${name}`].join(", ");
    const required = def.required === true ? " (required)" : "";
    rows.push([`${names}${valueHint(name, def)}`, `${def.description ?? ""}${required}`]);
    if (def.type === "boolean" && (def.default === true || def.negativeDescription) && !/^no-/.test(name)) {
      rows.push([`--no-${name}`, def.negativeDescription ?? `Turn --${name} off`]);
    }
  }
  return rows;
}

/**
 * The help of `cmd`, reached as `path` ("siphon keys create"), laid out for `width` columns:
 * description, usage, arguments, options and subcommands. `colour` adds ANSI styles.
 */
export async function renderHelp<T extends ArgsDef>(
  cmd: CommandDef<T>,
  path: string,
  options: { width: number; colour: boolean },
): Promise<string> {
  const style = options.colour ? coloured : plain;
  const width = Math.max(40, options.width);
  const meta = await metaOf(cmd);
  const args = ((await resolved(cmd.args)) ?? {}) as ArgsDef;
  const subCommands = await resolved(cmd.subCommands);
  const out: string[] = [];
  const about = [meta.description, meta.version ? `(v${meta.version})` : ""].filter(Boolean).join(" ");
  if (about) out.push(...wrap(about, width).map(style.dim), "");

  const usage: string[] = [path];
  const positional = Object.entries(args).filter(([, def]) => def.type === "positional");
  if (Object.keys(args).length > positional.length) usage.push("[OPTIONS]");
  for (const [name, def] of positional) {
    const word = `${name.toUpperCase()}${takesMany(def) ? "..." : ""}`;
    usage.push(def.required === false || def.default !== undefined ? `[${word}]` : `<${word}>`);
  }
  if (subCommands) usage.push("<command>");
  // "USAGE" and the command stay on one line; the rest wraps under the command.
  out.push(`${style.heading("USAGE")} ${wrap(usage.join(" "), width - 6).join(`\n${" ".repeat(6)}`)}`, "");

  if (positional.length) {
    const rows = positional.map(([name, def]): [string, string] => [
      name.toUpperCase(),
      def.description ?? "",
    ]);
    out.push(style.heading("ARGUMENTS"), "", ...columns(rows, width, style), "");
  }
  const rows = optionRows(args);
  if (rows.length) out.push(style.heading("OPTIONS"), "", ...columns(rows, width, style), "");
  if (subCommands) {
    const subRows: [string, string][] = [];
    for (const [name, sub] of Object.entries(subCommands)) {
      const subMeta = await metaOf((await resolved(sub)) as CommandDef);
      if (!subMeta.hidden) subRows.push([name, subMeta.description ?? ""]);
    }
    out.push(style.heading("COMMANDS"), "", ...columns(subRows, width, style), "");
    const more = `Use ${path} <command> --help (or ${path.replace(/^siphon/, "siphon help")} <command>) for a command's flags.`;
    out.push(...wrap(more, width));
  }
  const examples = EXAMPLES[path];
  if (examples?.length)
    out.push("", style.heading("EXAMPLES"), "", ...examples.flatMap((line) => exampleLines(line, width)));
  return out
    .join("\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n+$/, "");
}

/**
 * An example command laid out for `width` columns, still one shell command: its comment dropped
 * when it does not fit, then long lines continued with a backslash, never cut inside a word.
 */
function exampleLines(line: string, width: number): string[] {
  const indent = "  ";
  if (indent.length + line.length <= width) return [`${indent}${line}`];
  const command = line.replace(/\s+#\s.*$/, "");
  if (indent.length + command.length <= width) return [`${indent}${command}`];
  const lines: string[] = [];
  let current = indent;
  for (const word of command.split(" ")) {
    const next = current.trim() ? `${current} ${word}` : `${current}${word}`;
    if (next.length + 2 > width && current.trim()) {
      lines.push(`${current} \\`);
      current = `${indent}  ${word}`;
    } else current = next;
  }
  lines.push(current);
  return lines;
}
