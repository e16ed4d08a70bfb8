import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { type Run, run } from "../helpers/run.ts";

/**
 * The compiled binary's answers to mistakes a user makes: an output file in a folder that does
 * not exist, a crawl of an internal address, and, on a running `siphon serve`, a URL or headers
 * too long (431 with a body, past Bun's own 16 KB parser limit) and a wrong method (405).
 */

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/siphon");
let site: FixtureSite;
let home: string;

beforeAll(async () => {
  if (!existsSync(binary)) Bun.spawnSync(["bun", "run", "build"], { cwd: root });
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-e2e-errors-"));
}, 120_000);
afterAll(async () => {
  await site.stop();
  rmSync(home, { recursive: true, force: true });
});

function siphon(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return run([binary, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true", ...env },
  });
}

describe("bad input from the command line", () => {
  test("fetch -o into a folder that does not exist: exit 2 naming the folder, before any fetch", async () => {
    const before = site.hits("/article");
    const result = await siphon(["fetch", `${site.url}/article`, "-o", "/nonexistent/dir/p.md"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("/nonexistent/dir does not exist");
    expect(result.stderr).not.toMatch(/retried|internal_error/);
    expect(site.hits("/article")).toBe(before);
    const json = await siphon(["fetch", `${site.url}/article`, "-o", "/nonexistent/dir/p.md", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false, error: { type: "invalid_request" } });
  });

  test("fetch -o onto a folder: exit 2 saying it is a folder", async () => {
    const result = await siphon(["fetch", `${site.url}/article`, "-o", home]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("it is a folder");
  });

  test("crawl of an internal address with SSRF protection on: exit 2 forbidden_url, no job", async () => {
    const result = await siphon(["crawl", "http://127.0.0.1:9/", "--json"], {
      DISABLE_SSRF_PROTECTION: "false",
    });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { type: "forbidden_url" } });
  });
});

describe("a running siphon serve", () => {
  let proc: Bun.Subprocess | undefined;
  let base = "";

  beforeAll(async () => {
    proc = Bun.spawn([binary, "serve", "--port", "0"], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
    let banner = "";
    const pattern = /listening on (http:\/\/\S+)/;
    while (!pattern.test(banner)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`server exited: ${banner}`);
      banner += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    base = pattern.exec(banner)?.[1] ?? "";
  });
  afterAll(async () => {
    proc?.kill("SIGKILL");
    await proc?.exited;
  });

  test("a 32 KB query string and a 20 KB header get a 431 with a format-B body and X-Request-Id", async () => {
    const long = await fetch(`${base}/v1/fetch?url=https://example.com/&q=${"a".repeat(32 * 1024)}`);
    expect(long.status).toBe(431);
    expect(long.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await long.json()) as {
      error: { type: string; message: string };
      metadata: { requestId: string };
    };
    expect(body.error.type).toBe("invalid_request");
    expect(body.error.message).toContain("URL is");
    expect(body.metadata.requestId).toBe(long.headers.get("x-request-id") ?? "");
    const header = await fetch(`${base}/health`, { headers: { "x-big": "b".repeat(20 * 1024) } });
    expect(header.status).toBe(431);
    expect(((await header.json()) as { error: { message: string } }).error.message).toContain("headers are");
    const firecrawl = await fetch(`${base}/v2/crawl/crawl_x?q=${"a".repeat(32 * 1024)}`);
    expect(firecrawl.status).toBe(431);
    expect(await firecrawl.json()).toMatchObject({ success: false, code: "invalid_request" });
  });

  test("a wrong method on a real route is 405 with Allow; an unknown path 404", async () => {
    const wrong = await fetch(`${base}/health`, { method: "POST" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD");
    expect(((await wrong.json()) as { error: { type: string } }).error.type).toBe("method_not_allowed");
    const crawl = await fetch(`${base}/v1/crawl`, { method: "GET" });
    expect(crawl.status).toBe(405);
    expect(crawl.headers.get("allow")).toBe("POST");
    expect((await fetch(`${base}/v1/nope`, { method: "POST" })).status).toBe(404);
  });
});
