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

/**
 * Starts the generated crawl site (scripts/bench/crawl-site.ts) with `pages` pages, answering
 * `latencyMs` late, in its own process (`pid`, so its CPU can be counted apart) and resolves
 * with its URL, read from the JSON line it prints first.
 */
export async function startCrawlSite(
  pages: number,
  latencyMs = 0,
): Promise<{ url: string; pid: number; stop(): void }> {
  const script = new URL("./crawl-site.ts", import.meta.url).pathname;
  const child = Bun.spawn(["bun", script, "--pages", String(pages), "--latency-ms", String(latencyMs)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("crawl-site.ts exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { url } = JSON.parse(text.slice(0, text.indexOf("\n"))) as { url: string };
  return { url, pid: child.pid, stop: () => child.kill() };
}
