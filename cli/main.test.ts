import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../test/helpers/run.ts";
import { colourFor } from "./output.ts";

const main = join(import.meta.dir, "main.ts");
const home = mkdtempSync(join(tmpdir(), "siphon-cli-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ESC = "\x1b[";

/**
 * Runs `bun cli/main.ts` with stdout and stderr piped, in an environment
 * that says nothing about colour (no NO_COLOR, CI or TEST, which would make
 * the libraries leave colour out on their own), unless `env` adds to it.
 */
function siphon(args: string[], env: Record<string, string> = {}, stdin?: string) {
  return run([process.execPath, main, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: home, SIPHON_HOME: home, TERM: "xterm-256color", ...env },
    stdin,
  });
}

describe("colour", () => {
  test("colourFor follows FORCE_COLOR, NO_COLOR, TERM=dumb and the terminal", () => {
    const tty = { isTTY: true };
    const pipe = { isTTY: false };
    expect(colourFor(tty, {})).toBe(true);
    expect(colourFor(pipe, {})).toBe(false);
    expect(colourFor(tty, { NO_COLOR: "1" })).toBe(false);
    expect(colourFor(tty, { NO_COLOR: "" })).toBe(true);
    expect(colourFor(tty, { TERM: "dumb" })).toBe(false);
    expect(colourFor(pipe, { FORCE_COLOR: "1" })).toBe(true);
    expect(colourFor(pipe, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(true);
    expect(colourFor(tty, { FORCE_COLOR: "0" })).toBe(false);
    expect(colourFor(tty, { FORCE_COLOR: "false" })).toBe(false);
  });

  test("help piped to another program carries no colour codes, root and subcommands alike", async () => {
    // No command at all prints the same help, and exits 2.
    for (const [args, code] of [
      [["--help"], 0],
      [[], 2],
      [["fetch", "--help"], 0],
      [["keys", "revoke", "--help"], 0],
    ] as const) {
      const run = await siphon([...args]);
      expect(run.code, args.join(" ")).toBe(code);
      expect(run.stdout, args.join(" ")).not.toContain(ESC);
      expect(run.stdout).toContain("USAGE siphon");
    }
    expect((await siphon(["fetch", "--help"])).stdout).toContain("--only-main-content");
    // A subcommand of a subcommand gets its own help, named by its whole path.
    expect((await siphon(["keys", "revoke", "--help"])).stdout).toContain("USAGE siphon keys revoke");
  });

  test("FORCE_COLOR keeps the colour of piped help; FORCE_COLOR=0 takes it away everywhere", async () => {
    expect((await siphon(["--help"], { FORCE_COLOR: "1" })).stdout).toContain(ESC);
    expect((await siphon(["--help"], { FORCE_COLOR: "0" })).stdout).not.toContain(ESC);
    // consola takes any FORCE_COLOR for a yes: its badge would be coloured.
    const error = await siphon(["frobnicate"], { FORCE_COLOR: "0" });
    expect(error.stderr).toContain("unknown command frobnicate");
    expect(error.stderr).not.toContain(ESC);
  });

  test("error messages on a piped stderr, and in --json errors, carry no colour codes", async () => {
    const unknown = await siphon(["keys", "frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command siphon keys frobnicate");
    expect(unknown.stderr).not.toContain(ESC);
    const json = await siphon(["keys", "frobnicate", "--json"], { FORCE_COLOR: "1" });
    expect(JSON.parse(json.stdout).error.message).toBe("unknown command siphon keys frobnicate");
    const bad = await siphon(["fetch", "https://example.com", "--format", "bogus"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/format must be one of/);
    expect(bad.stderr).not.toContain(ESC);
  });
});

describe("siphon keys revoke and siphon usage", () => {
  const create = async (name: string) => {
    const run = await siphon(["keys", "create", "--name", name, "--json"]);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as { key: string; id: string; prefix: string };
  };
  const revokedAt = async (id: string) => {
    const lines = (await siphon(["keys", "list", "--json"])).stdout.trim().split("\n");
    const key = lines.map((line) => JSON.parse(line)).find((k) => k.id === id);
    if (!key) throw new Error(`${id} is not listed`);
    return key.revokedAt as number | null;
  };

  test("a pasted key, or one read from stdin, revokes that key and is never printed", async () => {
    const first = await create("pasted");
    const second = await create("stdin");
    const run = await siphon(["keys", "revoke", first.key]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`revoked ${first.id}`);
    expect(run.stdout + run.stderr).not.toContain(first.key);
    expect(await revokedAt(first.id)).toBeNumber();
    expect(await revokedAt(second.id)).toBeNull();

    const piped = await siphon(["keys", "revoke", "-", "--json"], {}, `${second.key}\n`);
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ id: second.id, revokedAt: expect.any(Number) });
    expect(piped.stdout + piped.stderr).not.toContain(second.key);
  });

  test("an ambiguous prefix fails with exit 2 naming the keys; an unknown key fails without printing it", async () => {
    const a = await create("a");
    const b = await create("b");
    const ambiguous = await siphon(["keys", "revoke", "key_"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(a.id);
    expect(ambiguous.stderr).toContain(b.id);
    expect(ambiguous.stderr).toContain("none was revoked");
    expect(await revokedAt(a.id)).toBeNull();

    const stranger = `sph_live_${"Q".repeat(32)}`;
    const unknown = await siphon(["keys", "revoke", stranger, "--json"]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.type).toBe("not_found");
    expect(unknown.stdout + unknown.stderr).not.toContain(stranger);

    const byId = await siphon(["keys", "revoke", b.id.slice(0, 9)]);
    expect(byId.code).toBe(0);
    expect(await revokedAt(b.id)).toBeNumber();
  });

  test("siphon usage says unlimited for the local account instead of printing its huge limit", async () => {
    const run = await siphon(["usage"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Plan +unlimited \(no weekly quota, no hourly limit\)$/m);
    expect(run.stdout).not.toContain("2147483647");
    const json = JSON.parse((await siphon(["usage", "--json"])).stdout);
    expect(json.plan).toEqual({ tier: "unlimited", weeklyLimit: 2147483647, burstLimit: 2147483647 });
    const metered = await siphon(["usage"], { SIPHON_LOCAL_TIER: "pro" });
    expect(metered.stdout).toContain("pro (1250 credits a week, 100 requests an hour)");
  });

  test("keys create says which account a key went to; --account acct_local adds one to the local account", async () => {
    const made = await siphon(["keys", "create", "--name", "elsewhere"]);
    expect(made.code).toBe(0);
    expect(made.stderr).toMatch(
      /acct_\w+ is a new account: .*--account acct_local adds a key to the local account/,
    );
    const local = await siphon(["keys", "create", "--name", "mine", "--account", "acct_local", "--json"]);
    expect(local.code).toBe(0);
    expect(JSON.parse(local.stdout)).toMatchObject({ accountId: "acct_local", tier: "unlimited" });
    expect(local.stderr).not.toContain("new account");
  });
});
