import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { type GeneratedSite, startGeneratedSite } from "../helpers/generated-site.ts";

/**
 * `siphon serve` (the compiled binary) starting and stopping: a port another process holds
 * refuses it (unless both share it on purpose), and SIGTERM ends open event streams with a
 * shutdown event and Firecrawl's WebSockets with 1001, hands the running crawls back (they
 * complete after a restart) and exits within the grace, a second signal at once.
 */

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/siphon");
let site: FixtureSite;
let gen: GeneratedSite;
const homes: string[] = [];
const servers: Bun.Subprocess[] = [];

beforeAll(async () => {
  if (!existsSync(binary)) Bun.spawnSync(["bun", "run", "build"], { cwd: root });
  site = await startFixtureSite();
  // Slow pages, so a crawl is still running when the server is told to stop.
  gen = startGeneratedSite(60, { latencyMs: 250 });
}, 120_000);
afterAll(async () => {
  for (const proc of servers) if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
  gen.stop();
  await site.stop();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "siphon-serve-"));
  homes.push(home);
  return home;
}

interface Served {
  proc: Bun.Subprocess;
  base: string;
  /** stderr so far (and, once exited, all of it). */
  output(): string;
}

/** Starts `dist/siphon serve <args>`; resolves once it listens, or with its exit when it does not start. */
async function serve(
  home: string,
  args: string[] = ["--port", "0"],
  env: Record<string, string> = {},
): Promise<Served & { exited?: number }> {
  const proc = Bun.spawn([binary, "serve", ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  servers.push(proc);
  let text = "";
  const decoder = new TextDecoder();
  const pattern = /listening on (http:\/\/\S+)/;
  const reading = (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) text += decoder.decode(chunk);
  })();
  const output = () => text;
  for (;;) {
    const base = pattern.exec(text)?.[1];
    if (base) return { proc, base, output };
    if (proc.exitCode !== null) {
      await reading;
      return { proc, base: "", output, exited: proc.exitCode };
    }
    await Bun.sleep(20);
  }
}

/** Reads server-sent events from a response until it ends; `onEvent` sees each as it comes. */
async function readEvents(response: Response, onEvent: (event: Record<string, unknown>) => void) {
  const decoder = new TextDecoder();
  let rest = "";
  try {
    for await (const chunk of response.body as ReadableStream<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true });
      const blocks = rest.split("\n\n");
      rest = blocks.pop() ?? "";
      for (const block of blocks)
        if (block.startsWith("data: ")) onEvent(JSON.parse(block.slice(6)) as Record<string, unknown>);
    }
  } catch {
    // The connection cut: what arrived is what the test looks at.
  }
}

const portOf = (base: string) => Number(new URL(base).port);

describe("a port another process holds", () => {
  test("a second siphon serve on a taken port refuses to start: exit 2, saying the port is taken", async () => {
    const first = await serve(newHome());
    const port = portOf(first.base);
    const second = await serve(newHome(), ["--port", String(port)]);
    expect(second.exited).toBe(2);
    expect(second.output()).toContain(`port ${port} is taken (another process is listening)`);
    expect(second.output()).not.toContain("listening on");
    // The first still answers every request: nothing was split off to the second.
    for (let i = 0; i < 10; i++) expect((await fetch(`${first.base}/health`)).status).toBe(200);
    first.proc.kill("SIGTERM");
    expect(await first.proc.exited).toBe(0);
  });

  test("--reuse-port (SIPHON_REUSE_PORT) shares it between processes that both ask", async () => {
    const home = newHome();
    const first = await serve(home, ["--port", "0"], { SIPHON_REUSE_PORT: "true" });
    const port = portOf(first.base);
    const second = await serve(home, ["--port", String(port), "--reuse-port"]);
    expect(second.exited).toBeUndefined();
    expect(second.base).toBe(first.base);
    expect((await fetch(`${first.base}/health`)).status).toBe(200);
    // A third that does not ask is refused: sharing is for processes that opt in.
    const third = await serve(home, ["--port", String(port)]);
    expect(third.exited).toBe(2);
    for (const served of [first, second]) {
      served.proc.kill("SIGTERM");
      expect(await served.proc.exited).toBe(0);
    }
  });
});

describe("shutdown on SIGTERM", () => {
  test("an SSE follower gets a shutdown event, the process exits within the grace, the crawl completes after a restart", async () => {
    const home = newHome();
    const grace = 5_000;
    const env = { SIPHON_SHUTDOWN_GRACE_MS: String(grace) };
    const server = await serve(home, ["--port", "0"], env);
    const start = await fetch(`${server.base}/v1/crawl`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${gen.url}/g/0`, limit: 40, maxDepth: 10, allowExternalLinks: false }),
    });
    expect(start.status).toBe(202);
    const { id } = (await start.json()) as { id: string };
    const stream = await fetch(`${server.base}/v1/crawl/${id}`, { headers: { accept: "text/event-stream" } });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const events: Record<string, unknown>[] = [];
    let pages = 0;
    let sawPage: () => void = () => {};
    const firstPage = new Promise<void>((resolve) => {
      sawPage = resolve;
    });
    const reading = readEvents(stream, (event) => {
      events.push(event);
      if (event.type === "page" && ++pages === 2) sawPage();
    });
    // A Firecrawl client's watcher on a crawl a Firecrawl route started: a WebSocket.
    const fcStart = await fetch(`${server.base}/v2/crawl`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${gen.url}/g/1`, limit: 30, crawlEntireDomain: true }),
    });
    expect(fcStart.status).toBe(200);
    const fcId = ((await fcStart.json()) as { id: string }).id;
    const socket = new WebSocket(`${server.base.replace("http", "ws")}/v2/crawl/${fcId}`);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      socket.onclose = (event) => resolve({ code: event.code, reason: event.reason });
    });
    await new Promise<void>((resolve) => {
      socket.onmessage = () => resolve();
    });
    await firstPage;
    const signalled = performance.now();
    server.proc.kill("SIGTERM");
    const code = await server.proc.exited;
    const took = performance.now() - signalled;
    await reading;
    expect(code).toBe(0);
    expect(took).toBeLessThan(grace);
    const last = events.at(-1) as { type: string; message: string };
    expect(last.type).toBe("shutdown");
    expect(last.message).toContain("shutting down");
    expect(events.some((event) => event.type === "done")).toBe(false);
    const close = await closed;
    expect(close.code).toBe(1001);
    expect(JSON.parse(close.reason)).toMatchObject({
      type: "error",
      error: expect.stringContaining("shutting down"),
    });

    // The job was handed back, not lost: the next start resumes it to its end.
    const again = await serve(home, ["--port", "0"], env);
    for (let i = 0; i < 100 && !again.output().includes("resumed"); i++) await Bun.sleep(20);
    expect(again.output()).toContain("resumed 2 unfinished job(s)");
    let poll: { status: string; completed: number; total: number } = { status: "", completed: 0, total: 0 };
    for (let i = 0; i < 300 && poll.status !== "completed"; i++) {
      await Bun.sleep(100);
      poll = (await (await fetch(`${again.base}/v1/crawl/${id}`)).json()) as typeof poll;
    }
    expect(poll.status).toBe("completed");
    expect(poll.completed).toBe(40);
    again.proc.kill("SIGTERM");
    expect(await again.proc.exited).toBe(0);
  }, 60_000);

  test("a request that never ends is cut when the grace is spent; a second SIGTERM exits at once", async () => {
    const home = newHome();
    // A fetch of a page that never answers, with a long timeout: a graceful stop would wait for it.
    const hang = `${site.url}/hang`;
    const grace = 2_000;
    const server = await serve(home, ["--port", "0"], {
      SIPHON_SHUTDOWN_GRACE_MS: String(grace),
      SIPHON_FETCH_TIMEOUT_MS: "60000",
      SIPHON_ESCALATION: "false",
    });
    const pending = fetch(`${server.base}/v1/fetch?url=${encodeURIComponent(hang)}&maxAge=0`).catch(
      (error: Error) => error,
    );
    await Bun.sleep(300);
    const signalled = performance.now();
    server.proc.kill("SIGTERM");
    await server.proc.exited;
    const took = performance.now() - signalled;
    expect(took).toBeLessThan(grace + 1_000);
    expect(took).toBeGreaterThan(grace / 2);
    await pending;

    const patient = await serve(home, ["--port", "0"], {
      SIPHON_SHUTDOWN_GRACE_MS: "30000",
      SIPHON_FETCH_TIMEOUT_MS: "60000",
      SIPHON_ESCALATION: "false",
    });
    const waiting = fetch(`${patient.base}/v1/fetch?url=${encodeURIComponent(hang)}&maxAge=0`).catch(
      (error: Error) => error,
    );
    await Bun.sleep(300);
    patient.proc.kill("SIGTERM");
    await Bun.sleep(500);
    expect(patient.proc.exitCode).toBeNull();
    const second = performance.now();
    patient.proc.kill("SIGTERM");
    const code = await patient.proc.exited;
    expect(performance.now() - second).toBeLessThan(1_000);
    expect(code).toBe(143);
    await waiting;
  }, 60_000);
});
