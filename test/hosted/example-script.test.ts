import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { postgresBin } from "../helpers/postgres.ts";
import { redisBin } from "../helpers/redis.ts";

// scripts/hosted-example.sh is the documented way to try hosted mode (docs/guides/hosted-mode.md): it must run as written.
describe.skipIf(!redisBin() || !postgresBin())("scripts/hosted-example.sh", () => {
  test("--check starts Redis, PostgreSQL, 2 API processes and 2 workers, crawls through one API and polls through the other", async () => {
    const proc = Bun.spawn(["bash", join(import.meta.dir, "../../scripts/hosted-example.sh"), "--check"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("poll through API 2: completed, 30 of 30 pages, 30 distinct");
    expect(stdout).toContain("check passed");
  }, 180_000);
});
