/**
 * Runs a benchmark worker script in its own process and returns the last JSON line it printed
 * on stdout; its stderr is passed on under `name`. Throws when it fails or prints no JSON.
 */
export async function runJsonWorker<T>(name: string, command: string[]): Promise<T> {
  const child = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const line = out
    .trim()
    .split("\n")
    .reverse()
    .find((l) => l.startsWith("{"));
  if (code !== 0 || !line) throw new Error(`${name} worker exited ${code}:\n${err}${out}`);
  if (err.trim()) console.error(`[${name}] ${err.trim()}`);
  return JSON.parse(line) as T;
}
