import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { imageSize } from "../helpers/images.ts";
import { type Run, run } from "../helpers/run.ts";
import { ARTICLE_SENTENCE, ARTICLE_TITLE } from "../helpers/site-pages/article.ts";
import { SPA_TEXT } from "../helpers/site-pages/special.ts";

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/siphon");
let site: FixtureSite;
let home: string;

beforeAll(async () => {
  // The suite runs after scripts/setup.sh built the binary; build it when run alone.
  if (!existsSync(binary)) Bun.spawnSync(["bun", "run", "build"], { cwd: root });
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-e2e-"));
}, 120_000);
afterAll(async () => {
  // A failed assertion skips a test's own SIGTERM: no server may outlive the suite.
  for (const proc of servers) if (proc.exitCode === null) proc.kill("SIGKILL");
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

function siphon(
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  return run([binary, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true", ...options.env },
    stdin: options.stdin,
  });
}

const servers: Bun.Subprocess[] = [];

/** Starts `dist/siphon serve --port 0` and returns its base URL once it says it is listening. */
async function startServe(env: Record<string, string> = {}): Promise<{ proc: Bun.Subprocess; base: string }> {
  const proc = Bun.spawn([binary, "serve", "--port", "0"], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  servers.push(proc);
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let banner = "";
  const pattern = /listening on (http:\/\/\S+)/;
  while (!pattern.test(banner)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited: ${banner}`);
    banner += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, base: pattern.exec(banner)?.[1] ?? "" };
}

describe("dist/siphon fetch", () => {
  test("prints markdown on stdout and nothing else", async () => {
    const run = await siphon(["fetch", `${site.url}/article`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(ARTICLE_SENTENCE);
    expect(run.stdout).toMatch(/^#+ /m);
    expect(run.stdout).not.toContain('"fingerprint"');
  });

  test("--json prints the whole Fetch result", async () => {
    const run = await siphon(["fetch", `${site.url}/article`, "--json", "--format", "text"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.title).toContain(ARTICLE_TITLE);
    for (const field of [
      "url",
      "content",
      "metadata",
      "links",
      "tokens",
      "method",
      "elapsed",
      "contentType",
      "quality",
      "fingerprint",
    ]) {
      expect(result).toHaveProperty(field);
    }
  });

  test("several URLs with --json give JSON Lines, a failure in place and exit 5", async () => {
    const run = await siphon([
      "fetch",
      `${site.url}/article`,
      "http://127.0.0.1:1/",
      `${site.url}/docs`,
      "--json",
    ]);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0].url).toBe(`${site.url}/article`);
    expect(lines[1]).toMatchObject({
      url: "http://127.0.0.1:1/",
      success: false,
      error: { type: "network_error" },
    });
    expect(lines[2].url).toBe(`${site.url}/docs`);
    expect(run.code).toBe(5);
  });

  test("- reads URLs from stdin", async () => {
    const run = await siphon(["fetch", "-", "--json"], {
      stdin: `${site.url}/article\n\n${site.url}/forum\n`,
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(2);
  });

  test("-o writes the file and keeps stdout empty", async () => {
    const out = join(home, "article.md");
    const run = await siphon(["fetch", `${site.url}/article`, "-o", out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toContain(ARTICLE_SENTENCE);
  });

  test("bad input exits 2 with the error object on stdout under --json", async () => {
    const run = await siphon(["fetch", "notaurl", "--json"]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ success: false, error: { type: "invalid_url" } });
    expect(run.stderr).toContain("invalid_url");
  });

  test("a refused target exits 2, a timeout exits 5", async () => {
    const ssrf = await siphon(["fetch", `${site.url}/article`], {
      env: { DISABLE_SSRF_PROTECTION: "false" },
    });
    expect(ssrf.code).toBe(2);
    expect(ssrf.stderr).toContain("forbidden_url");
    const slow = await siphon(["fetch", `${site.url}/hang`], { env: { SIPHON_FETCH_TIMEOUT_MS: "500" } });
    expect(slow.code).toBe(5);
  });

  test("a bad action exits 2 naming it, before any browser work", async () => {
    const run = await siphon(["fetch", `${site.url}/article`, "--actions", '[{"type":"click"}]']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/actions\[0\]: click needs/);
  });

  test("--quiet hides logs; unknown commands exit 2; --help exits 0", async () => {
    const quiet = await siphon(["fetch", `${site.url}/status/404`, "--quiet"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
    expect((await siphon(["frobnicate"])).code).toBe(2);
    const help = await siphon(["fetch", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout + help.stderr).toContain("--only-main-content");
  });
});

describe("dist/siphon map, keys and usage", () => {
  test("map prints one URL a line; --json the API shape", async () => {
    const run = await siphon(["map", site.url, "--search", "recipes", "--limit", "4"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toStartWith(`${site.url}/recipes/`);
    const json = await siphon(["map", site.url, "--limit", "2", "--json"]);
    const body = JSON.parse(json.stdout);
    expect(body.success).toBe(true);
    expect(body.links).toHaveLength(2);
    expect(body.links[0]).toBe(`${site.url}/`);
  });

  test("keys create prints the key once; a server then requires it; revoke makes it 401", async () => {
    const created = await siphon(["keys", "create", "--name", "ci", "--tier", "pro", "--json"]);
    expect(created.code).toBe(0);
    const { key, id } = JSON.parse(created.stdout);
    expect(key).toMatch(/^sph_live_[0-9A-Za-z]{32}$/);
    const list = await siphon(["keys", "list", "--json"]);
    expect(list.stdout).not.toContain(key);
    expect(JSON.parse(list.stdout.trim().split("\n").at(-1) ?? "{}")).toMatchObject({
      id,
      tier: "pro",
      revokedAt: null,
    });
    const { proc, base } = await startServe({ SIPHON_AUTH: "required" });
    try {
      const target = `${base}/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&maxAge=0`;
      expect((await fetch(target)).status).toBe(401);
      expect((await fetch(target, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      const usage = await siphon(["usage", "--json"], { env: { SIPHON_API_URL: base, SIPHON_API_KEY: key } });
      expect(JSON.parse(usage.stdout)).toMatchObject({ plan: { tier: "pro" }, weekly: { used: 1 } });
      const remote = await siphon(["fetch", `${site.url}/article`, "--api-url", base, "--api-key", key]);
      expect(remote.stdout).toContain(ARTICLE_SENTENCE);
      expect((await siphon(["keys", "revoke", id])).code).toBe(0);
      expect((await fetch(target, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
      const refused = await siphon(["fetch", `${site.url}/article`, "--api-url", base, "--api-key", key]);
      expect(refused.code).toBe(3);
    } finally {
      proc.kill("SIGTERM");
      await proc.exited;
    }
  });
});

describe("dist/siphon crawl, batch and jobs", () => {
  test("crawl -o writes one .md per page and index.json; --json streams JSON Lines", async () => {
    const out = join(home, "site-md");
    const run = await siphon(["crawl", site.url, "--limit", "5", "--max-depth", "1", "-o", out]);
    expect(run.code).toBe(0);
    const index = JSON.parse(readFileSync(join(out, "index.json"), "utf8")) as {
      url: string;
      file: string;
    }[];
    expect(index).toHaveLength(5);
    for (const entry of index) expect(readFileSync(join(out, entry.file), "utf8").length).toBeGreaterThan(10);
    const json = await siphon(["crawl", `${site.url}/article`, "--max-depth", "0", "--json"]);
    const lines = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ url: `${site.url}/article` });
    expect(lines[0].markdown).toContain(ARTICLE_SENTENCE);
  });

  test("batch reads a URL file, reports a bad URL per item; jobs lists both kinds", async () => {
    const list = join(home, "urls.txt");
    await Bun.write(list, `${site.url}/article\n# a comment\nnot a url\n`);
    const run = await siphon(["batch", list, "--json", "--format", "text"]);
    expect(run.code).toBe(0);
    const items = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(items).toHaveLength(2);
    expect(items.find((i) => i.url === "not a url")).toMatchObject({ error: { type: "invalid_url" } });
    const jobs = await siphon(["jobs", "--json", "--type", "batch"]);
    const listed = jobs.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(listed[0]).toMatchObject({ type: "batch", status: "completed", total: 2, completed: 2 });
    expect((await siphon(["jobs", "--status", "sleeping"])).code).toBe(2);
  });
});

describe("restart safety", () => {
  test("a crawl survives SIGKILL: it resumes, finishes, and no completed page is fetched twice", async () => {
    // A chain of slow pages: /p/0 links to /p/1 and so on, so the crawl takes a while and runs in order.
    const hits = new Map<string, number>();
    const chain = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const path = new URL(req.url).pathname;
        if (!path.startsWith("/p/")) return new Response("no", { status: 404 });
        hits.set(path, (hits.get(path) ?? 0) + 1);
        await Bun.sleep(150);
        const n = Number(path.slice(3));
        const body = `<html><head><title>Page ${n}</title></head><body><main><h1>Page ${n}</h1><p>${"Text of the chain page. ".repeat(20)}</p><a href="/p/${n + 1}">next</a></main></body></html>`;
        return new Response(body, { headers: { "content-type": "text/html" } });
      },
    });
    const origin = `http://127.0.0.1:${chain.port}`;
    try {
      const first = await startServe();
      const start = await fetch(`${first.base}/v1/crawl`, {
        method: "POST",
        body: JSON.stringify({ url: `${origin}/p/0`, limit: 8, maxDepth: 10, ignoreSitemap: true }),
      });
      const { id } = (await start.json()) as { id: string };
      let before: { completed: number; data: { url: string }[] } = { completed: 0, data: [] };
      while (before.completed < 3) {
        await Bun.sleep(50);
        before = (await (await fetch(`${first.base}/v1/crawl/${id}`)).json()) as typeof before;
      }
      first.proc.kill("SIGKILL");
      await first.proc.exited;
      const second = await startServe();
      let after = { status: "", completed: 0, total: 0, data: [] as { url: string }[] };
      for (let i = 0; i < 200 && after.status !== "completed"; i++) {
        await Bun.sleep(50);
        after = (await (await fetch(`${second.base}/v1/crawl/${id}`)).json()) as typeof after;
      }
      second.proc.kill("SIGTERM");
      await second.proc.exited;
      expect(after).toMatchObject({ status: "completed", completed: 8, total: 8 });
      expect(after.data.map((d) => d.url)).toEqual(Array.from({ length: 8 }, (_, i) => `${origin}/p/${i}`));
      for (const done of before.data) expect(hits.get(new URL(done.url).pathname)).toBe(1);
    } finally {
      chain.stop(true);
    }
  }, 60_000);
});

describe("dist/siphon serve", () => {
  test("serves /health and /v1/fetch, then shuts down on SIGTERM", async () => {
    const { proc, base } = await startServe();
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    const res = await fetch(`${base}/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&format=text`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: string }).content).toContain(ARTICLE_SENTENCE);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  });
});

/** Chromium processes whose command line mentions `marker` (their user-data-dir lives under it). */
function chromiumUnder(marker: string): number {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmd.includes("chrom") && cmd.includes(marker)) count++;
    } catch {
      // The process ended while we looked.
    }
  }
  return count;
}

describe("dist/siphon with the browser", () => {
  const browserEnv = () => {
    // Short: Chromium's profile socket path must stay under the 108-byte Unix socket limit.
    const tmp = join(home, crypto.randomUUID().slice(0, 6));
    mkdirSync(tmp);
    return { tmp, env: { TMPDIR: tmp } };
  };

  test("screenshot writes a full-page PNG of the asked width and leaves no Chromium behind", async () => {
    const { tmp, env } = browserEnv();
    const out = join(home, "page.png");
    const run = await siphon(
      ["screenshot", `${site.url}/tall`, "-o", out, "--full-page", "--width", "1440"],
      { env },
    );
    expect(run.code).toBe(0);
    const size = imageSize(readFileSync(out));
    expect(size).toMatchObject({ format: "png", width: 1440 });
    expect(size.height).toBeGreaterThan(720);
    expect(chromiumUnder(tmp)).toBe(0);
  }, 60_000);

  test("screenshot --json prints the SPEC response; piped without -o it writes the image bytes", async () => {
    const { env } = browserEnv();
    const json = await siphon(["screenshot", `${site.url}/article`, "--json", "--format", "jpeg"], { env });
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.success).toBe(true);
    expect(body.data.screenshot).toStartWith("data:image/jpeg;base64,");
    const proc = Bun.spawn([binary, "screenshot", `${site.url}/article`], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true", ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    const bytes = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
    expect(await proc.exited).toBe(0);
    expect(imageSize(bytes)).toEqual({ format: "png", width: 1280, height: 720 });
  }, 60_000);

  test("fetch escalates a JavaScript page to the browser and exits cleanly", async () => {
    const { tmp, env } = browserEnv();
    const run = await siphon(["fetch", `${site.url}/spa`, "--json", "--no-cache"], { env });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.method).toBe("browser");
    // The text only the page's script writes: a capture taken before it ran, or of the raw HTML, lacks it.
    expect(result.title).toBe("Support Dashboard");
    expect(result.content).toContain(SPA_TEXT);
    expect(result.content).toContain("Ticket #102: Export to CSV is slow");
    expect(chromiumUnder(tmp)).toBe(0);
  }, 60_000);

  test("serve closes Chromium on SIGTERM", async () => {
    const { tmp, env } = browserEnv();
    const { proc, base } = await startServe(env);
    const res = await fetch(`${base}/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&render=true`);
    expect(res.status).toBe(200);
    expect(chromiumUnder(tmp)).toBeGreaterThan(0);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    expect(chromiumUnder(tmp)).toBe(0);
  }, 60_000);
});
