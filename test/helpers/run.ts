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
