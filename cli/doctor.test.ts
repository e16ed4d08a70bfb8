import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../test/helpers/run.ts";

const home = mkdtempSync(join(tmpdir(), "siphon-doctor-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

test("doctor checks each part, says how to fix a failure, and exits 1 when one fails", async () => {
  // A port in use, a Chromium that is not there, protection off: three failures with their fixes.
  const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const run = await runCli(["doctor", "--json"], home, {
      PORT: String(taken.port),
      SIPHON_CHROMIUM_PATH: join(home, "no-chromium"),
      SIPHON_CHROMIUM_SHELL_PATH: join(home, "no-shell"),
    });
    expect(run.code).toBe(1);
    const checks = JSON.parse(run.stdout) as Check[];
    const by = Object.fromEntries(checks.map((c) => [c.check, c]));
    expect(by.store).toMatchObject({ ok: true });
    expect(by.port).toMatchObject({ ok: false, fix: expect.stringContaining("--port") });
    expect(by["SSRF protection"]).toMatchObject({
      ok: false,
      fix: expect.stringContaining("SIPHON_SSRF_ALLOW"),
    });
    for (const name of ["headless shell (renders)", "Chromium (stealth)"]) {
      expect(by[name]?.ok).toBe(false);
      expect(by[name]?.detail).toContain("not an executable file");
      expect(by[name]?.fix).toBeTruthy();
    }
  } finally {
    taken.stop(true);
  }
});

test("doctor passes on a set-up machine (Chromium installed, the store writable, the port free)", async () => {
  const run = await runCli(["doctor"], home, { DISABLE_SSRF_PROTECTION: "false", PORT: "0" });
  expect(run.stderr).toContain("headless shell (renders): ");
  expect(run.stderr).toContain("store: SQLite");
  expect(run.code).toBe(0);
});
