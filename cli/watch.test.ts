import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WatchCheckViewShape, WatchViewShape } from "../src/schemas/watch.ts";
import { startTestApp, type TestApp } from "../test/helpers/app.ts";
import {
  type FixtureSite,
  setWatchPlans,
  startFixtureSite,
  WATCH_PLANS,
} from "../test/helpers/fixture-site.ts";
import { run } from "../test/helpers/run.ts";

const main = join(import.meta.dir, "main.ts");
/** Each run starts bun (0.5-1 s on a busy 2-core machine); tests that run several get room. */
const SEVERAL_RUNS_MS = 60_000;
let home: string;
let site: FixtureSite;
const hooks: { headers: Headers; body: string }[] = [];
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "siphon-cli-watch-"));
  site = await startFixtureSite();
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      hooks.push({ headers: request.headers, body: await request.text() });
      return new Response("ok");
    },
  });
});
afterAll(async () => {
  await site.stop();
  receiver.stop(true);
  rmSync(home, { recursive: true, force: true });
});

/** Runs `bun cli/main.ts watch …` on the local store; no terminal, loopback only. */
function siphon(args: string[], env: Record<string, string> = {}) {
  return run([process.execPath, main, "watch", ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      SIPHON_HOME: home,
      DISABLE_SSRF_PROTECTION: "true",
      SIPHON_WEBHOOK_BASE_DELAY_MS: "20",
      ...env,
    },
  });
}

describe("siphon watch (local store)", () => {
  test(
    "add with every option, list, show, check (baseline, change with its diff and a signed webhook), pause, rm",
    async () => {
      setWatchPlans("cli", WATCH_PLANS);
      const hook = `http://127.0.0.1:${receiver.port}/x`;
      const added = await siphon([
        "add",
        `${site.url}/watch/pricing/cli`,
        "--every",
        "30",
        "--selector",
        "#plans",
        "--webhook",
        hook,
        "--secret",
        "s",
        "--name",
        "plans",
        "--ignore-pattern",
        "Starter",
        "--ignore-pattern",
        "/^nothing$/i",
      ]);
      expect(added.code).toBe(0);
      const id = added.stdout.trim();
      expect(id).toMatch(/^watch_[0-9a-f-]{36}$/);
      expect(added.stderr).toContain("every 30 min");

      const listed = await siphon(["list"]);
      expect(listed.stdout.split("\n")[0]).toBe("ID\tSTATUS\tEVERY\tCHANGES\tLAST CHECK\tURL");
      expect(listed.stdout).toContain(`${id}\tactive\t30m\t0\t-\t${site.url}/watch/pricing/cli`);

      const shown = JSON.parse((await siphon(["show", id, "--json"])).stdout) as { watch: WatchViewShape };
      expect(shown.watch).toMatchObject({
        name: "plans",
        includeTags: ["#plans"],
        checkIntervalMinutes: 30,
        webhook: { url: hook, events: ["changed"], signed: true },
      });
      expect(shown.watch.ignore.patterns).toEqual(["Starter", "/^nothing$/i"]);

      const baseline = await siphon(["check", id]);
      expect(baseline.code).toBe(0);
      expect(baseline.stdout).toStartWith("Baseline recorded: ");

      setWatchPlans("cli", [WATCH_PLANS[0]!, { name: "Pro", price: "$49 per month" }]);
      const changed = await siphon(["check", id]);
      expect(changed.code).toBe(0);
      expect(changed.stdout).toStartWith('1 line added, 1 removed: "$29 per month" -> "$49 per month"\n');
      expect(changed.stdout).toContain("-$29 per month\n+$49 per month\n");
      // The CLI waits for the delivery before it exits.
      expect(hooks.length).toBe(1);
      const signature = `sha256=${createHmac("sha256", "s").update(hooks[0]!.body).digest("hex")}`;
      expect(hooks[0]!.headers.get("x-siphon-signature")).toBe(signature);
      expect(JSON.parse(hooks[0]!.body)).toMatchObject({ event: "changed", data: { watchId: id } });

      // --exit-code: 1 for a change (as git diff --exit-code), 0 for none.
      setWatchPlans("cli", WATCH_PLANS);
      const exited = await siphon(["check", id, "--exit-code"]);
      expect(exited.code).toBe(1);
      expect(exited.stdout).toContain("+$29 per month\n");
      const same = await siphon(["check", id, "--exit-code", "--json"]);
      expect(same.code).toBe(0);
      expect(JSON.parse(same.stdout).status).toBe("same");
      hooks.length = 0;

      const human = await siphon(["show", id]);
      expect(human.stdout).toContain("status      active\n");
      expect(human.stdout).toContain("checks      4, 2 with changes\n");
      expect(human.stdout).toMatch(/\tmanual\tchanged\t1 line added/);
      expect(human.stdout).toMatch(/\tmanual\tsame\t/);

      const paused = await siphon(["pause", id]);
      expect(paused.stderr).toContain(`${id} is paused`);
      expect((await siphon(["list"])).stdout).toContain(`${id}\tpaused\t`);

      expect((await siphon(["rm", id])).code).toBe(0);
      const gone = await siphon(["show", id, "--json"]);
      expect(gone.code).toBe(1);
      expect(JSON.parse(gone.stdout).error.type).toBe("not_found");
    },
    SEVERAL_RUNS_MS,
  );

  test(
    "bad input exits 2 with the API's message",
    async () => {
      const bad = await siphon(["add", `${site.url}/watch/pricing/cli`, "--every", "1", "--json"]);
      expect(bad.code).toBe(2);
      expect(JSON.parse(bad.stdout).error.message).toContain("at least 5");
      const scheme = await siphon(["add", "ftp://example.com/"]);
      expect(scheme.code).toBe(2);
    },
    SEVERAL_RUNS_MS,
  );
});

describe("siphon watch --api-url", () => {
  let app: TestApp;
  let url: string;
  beforeAll(async () => {
    app = await startTestApp({ extractThreads: 0 });
    url = app.listen();
  });
  afterAll(() => app.close());

  test(
    "the same commands against a server",
    async () => {
      const { key } = await app.createKey("pro");
      const remote = ["--api-url", url, "--api-key", key];
      const added = await siphon(["add", `${site.url}/watch/pricing/remote`, "--json", ...remote]);
      const watch = JSON.parse(added.stdout) as WatchViewShape;
      expect(watch.checkIntervalMinutes).toBe(60);
      const checked = JSON.parse(
        (await siphon(["check", watch.id, "--json", ...remote])).stdout,
      ) as WatchCheckViewShape;
      expect(checked).toMatchObject({ watchId: watch.id, status: "baseline", trigger: "manual" });
      expect("success" in checked).toBe(false);
      const resumed = await siphon(["resume", watch.id, ...remote]);
      expect(resumed.stderr).toContain("is active");
      const lines = (await siphon(["list", "--json", ...remote])).stdout.trim().split("\n");
      expect(lines.map((line) => JSON.parse(line).id)).toEqual([watch.id]);
      // The server's account, not the local store's: the local list does not have it.
      expect((await siphon(["list"])).stdout).not.toContain(watch.id);
      expect((await siphon(["rm", watch.id, ...remote])).code).toBe(0);
      expect((await app.request("/v1/watch", { headers: { authorization: `Bearer ${key}` } })).status).toBe(
        200,
      );
      expect((await siphon(["show", watch.id, ...remote])).code).toBe(1);
    },
    SEVERAL_RUNS_MS,
  );
});
