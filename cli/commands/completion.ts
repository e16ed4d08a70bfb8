import type { ArgsDef, CommandDef } from "citty";
import { defineCommand } from "citty";
import { SiphonError } from "../../src/errors.ts";
import { writeStdout } from "../output.ts";
import { flagsOf, resolved } from "../strict-args.ts";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

/** A command's completable words: its subcommands and its --flags (with --no-x for flags on by default). */
interface Words {
  subcommands: Record<string, Words>;
  flags: { name: string; description: string }[];
}

async function wordsOf(cmd: CommandDef): Promise<Words> {
  const flags = flagsOf(((await resolved(cmd.args)) ?? {}) as ArgsDef);
  const subs = ((await resolved(cmd.subCommands)) ?? {}) as Record<string, CommandDef>;
  const subcommands: Record<string, Words> = {};
  for (const [name, sub] of Object.entries(subs)) subcommands[name] = await wordsOf(await resolved(sub));
  return { subcommands, flags };
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

function bash(top: Record<string, Words>): string {
  const cases: string[] = [];
  for (const [name, words] of Object.entries(top)) {
    const subs = Object.keys(words.subcommands);
    cases.push(
      `    ${name}) words=${quote([...subs, ...words.flags.map((f) => `--${f.name}`)].join(" "))} ;;`,
    );
    for (const [sub, subWords] of Object.entries(words.subcommands)) {
      cases.push(
        `    "${name} ${sub}") words=${quote(subWords.flags.map((f) => `--${f.name}`).join(" "))} ;;`,
      );
    }
  }
  return `# siphon completion for bash: eval "$(siphon completion bash)" (e.g. in ~/.bashrc)
_siphon() {
  local cur=\${COMP_WORDS[COMP_CWORD]} words key
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W ${quote(Object.keys(top).join(" "))} -- "$cur"))
    return
  fi
  key=\${COMP_WORDS[1]}
  if [ "$COMP_CWORD" -gt 2 ] && [[ \${COMP_WORDS[2]} != -* ]]; then
    case "\${COMP_WORDS[1]} \${COMP_WORDS[2]}" in
${cases.filter((c) => c.includes('"')).join("\n")}
      *) words="" ;;
    esac
    [ -n "$words" ] && { COMPREPLY=($(compgen -W "$words" -- "$cur")); return; }
  fi
  case "$key" in
${cases.filter((c) => !c.includes('"')).join("\n")}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  [ \${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _siphon siphon
`;
}

function zsh(top: Record<string, Words>): string {
  return `#compdef siphon
# siphon completion for zsh: eval "$(siphon completion zsh)" (e.g. in ~/.zshrc)
autoload -U +X bashcompinit && bashcompinit
${bash(top).split("\n").slice(1).join("\n")}`;
}

function fish(top: Record<string, Words>): string {
  const lines = [
    "# siphon completion for fish: siphon completion fish > ~/.config/fish/completions/siphon.fish",
    "complete -c siphon -f",
  ];
  for (const [name, words] of Object.entries(top)) {
    lines.push(`complete -c siphon -n __fish_use_subcommand -a ${name}`);
    for (const sub of Object.keys(words.subcommands)) {
      lines.push(`complete -c siphon -n "__fish_seen_subcommand_from ${name}" -a ${sub}`);
    }
    const flags = new Map<string, string>();
    for (const f of words.flags) flags.set(f.name, f.description);
    for (const subWords of Object.values(words.subcommands))
      for (const f of subWords.flags) if (!flags.has(f.name)) flags.set(f.name, f.description);
    for (const [flag, description] of flags) {
      const about = description ? ` -d ${quote(description.slice(0, 80))}` : "";
      lines.push(`complete -c siphon -n "__fish_seen_subcommand_from ${name}" -l ${flag}${about}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export default defineCommand({
  meta: {
    name: "completion",
    description: "Print the shell completion script for bash, zsh or fish (commands, subcommands and flags)",
  },
  args: {
    shell: { type: "positional", required: true, description: "bash, zsh or fish" },
  },
  async run({ args }) {
    const shell = args.shell as Shell;
    if (!SHELLS.includes(shell)) {
      throw new SiphonError(
        "invalid_request",
        `siphon completion takes bash, zsh or fish, not "${args.shell}"`,
        {
          hint: 'e.g. eval "$(siphon completion bash)"',
        },
      );
    }
    const { commands } = await import("../run.ts");
    const top: Record<string, Words> = {};
    for (const [name, load] of Object.entries(commands)) top[name] = await wordsOf(await load());
    top.help = { subcommands: {}, flags: [] };
    await writeStdout(shell === "bash" ? bash(top) : shell === "zsh" ? zsh(top) : fish(top));
    return 0;
  },
});
