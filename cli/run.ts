/**
 * The CLI behind cli/main.ts: the command table (subcommands load lazily, so `siphon fetch` never
 * pays for the server), help, and the one mapping of errors to exit codes (citty's runMain always
 * exits 1, so runCommand is called directly). Every command line is checked against its
 * command's flags first (strict-args.ts): citty alone accepts any flag.
 */
import { type CommandDef, defineCommand, runCommand } from "citty";
import pkg from "../package.json";
import { closest } from "../src/closest.ts";
import { SiphonError } from "../src/errors.ts";
import { PIPE_COLUMNS, renderHelp } from "./help.ts";
import { colourFor, forStream, reportError, writeStdout } from "./output.ts";
import { checkArgs, resolved } from "./strict-args.ts";

export const commands: Record<string, () => Promise<CommandDef>> = {
  fetch: () => import("./commands/fetch.ts").then((m) => m.default as CommandDef),
  crawl: () => import("./commands/crawl.ts").then((m) => m.default as CommandDef),
  batch: () => import("./commands/batch.ts").then((m) => m.default as CommandDef),
  jobs: () => import("./commands/jobs.ts").then((m) => m.default as CommandDef),
  map: () => import("./commands/map.ts").then((m) => m.default as CommandDef),
  llmstxt: () => import("./commands/llmstxt.ts").then((m) => m.default as CommandDef),
  search: () => import("./commands/search.ts").then((m) => m.default as CommandDef),
  ask: () => import("./commands/ask.ts").then((m) => m.default as CommandDef),
  answer: () => import("./commands/answer.ts").then((m) => m.default as CommandDef),
  agent: () => import("./commands/agent.ts").then((m) => m.default as CommandDef),
  research: () => import("./commands/research.ts").then((m) => m.default as CommandDef),
  extract: () => import("./commands/extract.ts").then((m) => m.default as CommandDef),
  keys: () => import("./commands/keys.ts").then((m) => m.default as CommandDef),
  usage: () => import("./commands/usage.ts").then((m) => m.default as CommandDef),
  migrate: () => import("./commands/migrate.ts").then((m) => m.default as CommandDef),
  screenshot: () => import("./commands/screenshot.ts").then((m) => m.default as CommandDef),
  youtube: () => import("./commands/youtube.ts").then((m) => m.default as CommandDef),
  watch: () => import("./commands/watch.ts").then((m) => m.default as CommandDef),
  serve: () => import("./commands/serve.ts").then((m) => m.default as CommandDef),
  mcp: () => import("./commands/mcp.ts").then((m) => m.default as CommandDef),
  config: () => import("./commands/config.ts").then((m) => m.default as CommandDef),
  completion: () => import("./commands/completion.ts").then((m) => m.default as CommandDef),
  doctor: () => import("./commands/doctor.ts").then((m) => m.default as CommandDef),
};

const main = defineCommand({
  meta: {
    name: "siphon",
    version: pkg.version,
    description: "Turn web pages into clean, model-ready content",
  },
  subCommands: commands,
});

/**
 * The columns help is laid out for: the terminal's width when stdout is one, else 80 (a pager,
 * a file, another program), so no line is wider than what reads it.
 */
const helpWidth = () => (process.stdout.isTTY && process.stdout.columns) || PIPE_COLUMNS;

/** Prints the help of `cmd` (reached as `path`) on stdout, coloured only where stdout takes colour. */
async function showHelp(cmd: CommandDef, path: string): Promise<void> {
  const text = await renderHelp(cmd, path, { width: helpWidth(), colour: colourFor(process.stdout) });
  await writeStdout(`${forStream(process.stdout, text)}\n`);
}

/**
 * The command `words` name under `cmd` (`keys revoke` is revoke), with its path ("siphon keys
 * revoke"); with `exact`, a word that names no command is refused with the closest name
 * (`siphon help crawll`), otherwise the help stops at the deepest command named (`crawl URL --help`).
 * Throws SiphonError invalid_request.
 */
async function commandAt(
  cmd: CommandDef,
  path: string,
  words: string[],
  exact: boolean,
): Promise<[CommandDef, string]> {
  const subCommands = await resolved(cmd.subCommands);
  const [next, ...rest] = words;
  if (next === undefined || !subCommands) {
    if (exact && next !== undefined)
      throw new SiphonError("invalid_request", `${path} has no command ${next}`, {
        hint: `See ${path} --help.`,
      });
    return [cmd, path];
  }
  const sub = subCommands[next];
  if (!sub) {
    if (!exact) return [cmd, path];
    const names = Object.keys(subCommands);
    throw new SiphonError(
      "invalid_request",
      `unknown command ${path === "siphon" ? "" : `${path} `}${next}${didYouMean(next, names)}`,
      { hint: `Commands: ${names.join(", ")}.` },
    );
  }
  return commandAt((await resolved(sub)) as CommandDef, `${path} ${next}`, rest, exact);
}

const didYouMean = (word: string, names: string[]) => {
  const near = closest(word, names);
  return near ? `; did you mean ${near}?` : "";
};

const isHelp = (a: string) => a === "--help" || a === "-h";

/** Runs the command line `argv` (without the program's name); resolves with the exit code. */
export async function run(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  // Flags after `--` are words (a URL or a question), not requests for help.
  const flags = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  const wantsHelp = flags.some(isHelp);
  const [name, ...rest] = argv;
  try {
    if (name === undefined || (name.startsWith("-") && wantsHelp)) {
      await showHelp(main, "siphon");
      return name === undefined ? 2 : 0;
    }
    if (name === "help") {
      // `siphon help keys create`: the words name the command; flags there mean nothing.
      const words = rest.filter((a) => !isHelp(a));
      const bad = words.find((a) => a.startsWith("-"));
      if (bad) throw new SiphonError("invalid_request", `siphon help takes command names, not ${bad}`);
      await showHelp(...(await commandAt(main, "siphon", words, true)));
      return 0;
    }
    if (name.startsWith("-")) {
      throw new SiphonError("invalid_request", `unknown flag ${name}: give the command first`, {
        hint: "For example siphon fetch URL --json; see siphon --help.",
      });
    }
    const load = commands[name];
    if (!load) {
      const names = Object.keys(commands);
      throw new SiphonError("invalid_request", `unknown command ${name}${didYouMean(name, names)}`, {
        hint: `Commands: ${names.join(", ")}.`,
      });
    }
    const cmd = await load();
    if (wantsHelp) {
      const words = rest.filter((a) => !a.startsWith("-"));
      await showHelp(...(await commandAt(cmd, `siphon ${name}`, words, false)));
      return 0;
    }
    await checkArgs(cmd, rest, `siphon ${name}`);
    // Run the (sub)command itself: citty drops a subcommand's return value, which is our exit code.
    let target = cmd;
    let words = rest;
    for (;;) {
      const subs = (await resolved(target.subCommands)) as Record<string, unknown> | undefined;
      const word = words[0];
      if (!subs || word === undefined || !Object.hasOwn(subs, word)) break;
      target = (await resolved(subs[word] as CommandDef)) as CommandDef;
      words = words.slice(1);
    }
    const { result } = await runCommand(target, { rawArgs: words });
    return typeof result === "number" ? result : 0;
  } catch (error) {
    // The reader went away (`| head`): stop quietly, as Unix tools do.
    if ((error as { code?: string })?.code === "EPIPE") return 0;
    // citty's own argument errors (a missing positional) are bad input.
    // Their messages carry citty's colour codes; the message is also the JSON error's, so it is made plain.
    if (error instanceof Error && error.name === "CLIError") {
      return reportError(new SiphonError("invalid_request", Bun.stripANSI(error.message)), json);
    }
    return reportError(error, json);
  }
}
