import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../test/helpers/run.ts";

const home = mkdtempSync(join(tmpdir(), "siphon-completion-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** What bash completes for `words` (the cursor on the last one) with the script siphon prints. */
async function complete(script: string, words: string[]): Promise<string[]> {
  const file = join(home, "siphon.bash");
  writeFileSync(file, script);
  const line = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _siphon; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const child = Bun.spawn(["bash", "-c", line], { stdout: "pipe" });
  return (await new Response(child.stdout).text()).split("\n").filter(Boolean);
}

test("bash completion completes commands, subcommands and each command's flags", async () => {
  const run = await runCli(["completion", "bash"], home);
  expect(run.code).toBe(0);
  expect(await complete(run.stdout, ["siphon", "ll"])).toEqual(["llmstxt"]);
  expect(await complete(run.stdout, ["siphon", "fetch", "--chunk-t"])).toEqual(["--chunk-tokens"]);
  expect(await complete(run.stdout, ["siphon", "fetch", "--no-site"])).toEqual(["--no-site-markdown"]);
  expect(await complete(run.stdout, ["siphon", "watch", "ch"])).toEqual(["check"]);
  expect(await complete(run.stdout, ["siphon", "watch", "check", "--exit"])).toEqual(["--exit-code"]);
});

test("zsh and fish scripts name every command; another shell is a usage error", async () => {
  const zsh = await runCli(["completion", "zsh"], home);
  expect(zsh.stdout).toStartWith("#compdef siphon\n");
  const fish = await runCli(["completion", "fish"], home);
  expect(fish.stdout).toContain("complete -c siphon -n __fish_use_subcommand -a crawl");
  expect(fish.stdout).toContain('complete -c siphon -n "__fish_seen_subcommand_from watch" -a check');
  const bad = await runCli(["completion", "tcsh"], home);
  expect(bad.code).toBe(2);
});
