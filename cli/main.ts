#!/usr/bin/env bun
/**
 * The one entry of the siphon binary. Subcommands load lazily, so `siphon
 * fetch` never pays for the server; errors are mapped to exit codes here once
 * (citty's runMain always exits 1, so runCommand is called directly).
 */
import { type CommandDef, defineCommand, renderUsage, runCommand } from "citty";
import pkg from "../package.json";
import { SiphonError } from "../src/errors.ts";
import { forStream, log, reportError, writeStdout } from "./output.ts";

const commands: Record<string, () => Promise<CommandDef>> = {
  fetch: () => import("./commands/fetch.ts").then((m) => m.default as CommandDef),
  crawl: () => import("./commands/crawl.ts").then((m) => m.default as CommandDef),
  batch: () => import("./commands/batch.ts").then((m) => m.default as CommandDef),
  jobs: () => import("./commands/jobs.ts").then((m) => m.default as CommandDef),
  map: () => import("./commands/map.ts").then((m) => m.default as CommandDef),
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
};

const main = defineCommand({
  meta: {
    name: "siphon",
    version: pkg.version,
    description: "Turn web pages into clean, model-ready content",
  },
  subCommands: commands,
});

/** Prints the help of `cmd` on stdout, coloured only where stdout takes colour (see colourFor). */
async function showHelp(cmd: CommandDef, parent?: CommandDef): Promise<void> {
  await writeStdout(`${forStream(process.stdout, await renderUsage(cmd, parent))}\n\n`);
}

/** A citty value that may be given as itself, a promise, or a function returning either. */
async function resolved<T>(value: T | Promise<T> | (() => T | Promise<T>)): Promise<T> {
  return typeof value === "function" ? (value as () => T | Promise<T>)() : value;
}

/**
 * The deepest subcommand `args` name under `cmd` (`keys revoke --help` is
 * revoke's help), with a parent that names the path to it (`siphon keys`).
 */
async function helpTarget(
  cmd: CommandDef,
  parent: CommandDef,
  args: string[],
): Promise<[CommandDef, CommandDef]> {
  const subCommands = await resolved(cmd.subCommands);
  const next = args.find((a) => !a.startsWith("-"));
  const sub = next === undefined ? undefined : subCommands?.[next];
  if (!sub || next === undefined) return [cmd, parent];
  const path = `${(await resolved(parent.meta))?.name ?? ""} ${(await resolved(cmd.meta))?.name ?? ""}`;
  const loaded = (await resolved(sub)) as CommandDef;
  return helpTarget(loaded, { meta: { name: path.trim() } }, args.slice(args.indexOf(next) + 1));
}

async function run(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  const name = argv.find((a) => !a.startsWith("-"));
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (!name || (wantsHelp && !(name in commands))) {
    await showHelp(main);
    return name || wantsHelp ? 0 : 2;
  }
  const load = commands[name];
  if (!load) {
    log.error(`Unknown command "${name}". Commands: ${Object.keys(commands).join(", ")}`);
    return 2;
  }
  if (wantsHelp) {
    await showHelp(...(await helpTarget(await load(), main, argv.slice(argv.indexOf(name) + 1))));
    return 0;
  }
  try {
    // Run the subcommand directly: citty drops a subcommand's return value, which is our exit code.
    const { result } = await runCommand(await load(), { rawArgs: argv.slice(argv.indexOf(name) + 1) });
    return typeof result === "number" ? result : 0;
  } catch (error) {
    // The reader went away (`| head`): stop quietly, as Unix tools do.
    if ((error as { code?: string })?.code === "EPIPE") return 0;
    // citty's own argument errors (missing value, bad enum) are bad input.
    // Their messages carry citty's colour codes; the message is also the JSON error's, so it is made plain.
    if (error instanceof Error && error.name === "CLIError") {
      return reportError(new SiphonError("invalid_request", Bun.stripANSI(error.message)), json);
    }
    return reportError(error, json);
  }
}

// Exit explicitly: keep-alive sockets must not hold a finished CLI run open.
process.exit(await run(process.argv.slice(2)));
