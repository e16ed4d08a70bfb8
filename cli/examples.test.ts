import { expect, test } from "bun:test";
import type { CommandDef } from "citty";
import { EXAMPLES } from "./examples.ts";
import { commands } from "./run.ts";
import { checkArgs, resolved } from "./strict-args.ts";

/** A shell line's words (quotes grouped, comments and pipes cut off; $VARS kept as words). */
function words(line: string): string[] {
  const command =
    line
      .split(/\s+#\s/)[0]
      ?.split(" | ")[0]
      ?.split(" > ")[0] ?? "";
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

test("every command's --help ends with examples", () => {
  for (const name of Object.keys(commands))
    expect(EXAMPLES[`siphon ${name}`]?.length ?? 0).toBeGreaterThan(0);
});

test("every example names a real command and only flags it takes", async () => {
  for (const line of Object.values(EXAMPLES).flat()) {
    const argv = words(line);
    const start = argv.indexOf("siphon");
    if (start === -1) continue; // a shell line around siphon (eval "$(…)")
    const [name, ...rest] = argv.slice(start + 1);
    const load = commands[name ?? ""];
    expect(load, line).toBeDefined();
    let cmd = (await (load as () => Promise<CommandDef>)()) as CommandDef;
    let args = rest;
    const subs = (await resolved(cmd.subCommands)) as Record<string, CommandDef> | undefined;
    if (subs && args[0] && Object.hasOwn(subs, args[0])) {
      cmd = await resolved(subs[args[0]] as CommandDef);
      args = args.slice(1);
    }
    await expect(checkArgs(cmd, args, `siphon ${name}`)).resolves.toBeUndefined();
  }
});
