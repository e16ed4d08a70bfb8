import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const home = mkdtempSync(join(tmpdir(), "siphon-roles-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function serve(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(
    ["bun", join(import.meta.dir, "../../cli/main.ts"), "serve", "--port", "0", ...args],
    {
      env: { PATH: process.env.PATH ?? "", SIPHON_HOME: home, ...env },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { stderr, code };
}

describe("siphon serve --role", () => {
  test("api and worker need REDIS_URL: refused with exit 2 and what to do", async () => {
    for (const role of ["api", "worker"]) {
      const run = await serve(["--role", role]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--role ${role} needs REDIS_URL`);
    }
  }, 30_000);

  test("an unknown role, a bad concurrency or a REDIS_URL that is not redis:// are refused with exit 2", async () => {
    expect((await serve(["--role", "both"])).stderr).toContain("--role must be api, worker or all");
    expect((await serve([], { SIPHON_ROLE: "both" })).code).toBe(2);
    expect((await serve(["--concurrency", "0"])).stderr).toContain("--concurrency must be an integer");
    const bad = await serve([], { REDIS_URL: "http://127.0.0.1:6379" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("REDIS_URL must be a redis://");
  }, 30_000);
});
