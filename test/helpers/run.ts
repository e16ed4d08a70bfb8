import { join } from "node:path";

/** What a command printed and how it ended. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` with stdout and stderr piped (so it sees no terminal) and the given environment
 * only, feeding `stdin` when given; resolves once it exits.
 */
export async function run(
  command: string[],
  options: { env: Record<string, string>; cwd?: string; stdin?: string },
): Promise<Run> {
  const proc = Bun.spawn(command, {
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

const CLI_MAIN = join(import.meta.dir, "..", "..", "cli", "main.ts");

/**
 * Runs `bun cli/main.ts <args>` as the CLI tests of the fetching commands do: no terminal, no
 * environment but PATH, `home` as HOME and SIPHON_HOME, loopback allowed (the fixture site and
 * the fakes), no escalation to the browser, then `env`.
 */
export function runCli(args: string[], home: string, env: Record<string, string> = {}): Promise<Run> {
  return run([process.execPath, CLI_MAIN, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      SIPHON_HOME: home,
      DISABLE_SSRF_PROTECTION: "true",
      SIPHON_ESCALATION: "false",
      ...env,
    },
  });
}
