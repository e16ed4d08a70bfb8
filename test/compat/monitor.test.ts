import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { resolve } from "node:path";
import Firecrawl, { SdkError } from "@mendable/firecrawl-js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FixtureSite, setWatchPlans, startFixtureSite, WATCH_PLANS } from "../helpers/fixture-site.ts";

/**
 * Firecrawl's monitor API over siphon's watches, driven by Firecrawl's own clients against a
 * real siphon on loopback: the JS SDK's monitor methods and firecrawl-mcp's monitor tools (stdio,
 * FIRECRAWL_API_URL), with a webhook receiver checking monitor.page and monitor.check.completed
 * and their X-Firecrawl-Signature, and the scheduler on a movable clock.
 */

const SECRET = "whsec-monitor-test";
const MCP_SERVER = "node_modules/firecrawl-mcp/dist/index.js";
const CLI = resolve("node_modules/firecrawl-cli/dist/index.js");

let site: FixtureSite;
let app: TestApp;
let clock: TestClock;
let fc: Firecrawl;
let apiUrl: string;
let key: string;
let receiver: ReturnType<typeof Bun.serve>;
const deliveries: { headers: Headers; raw: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const raw = await request.text();
      deliveries.push({ headers: request.headers, raw, body: JSON.parse(raw) });
      return new Response("ok");
    },
  });
  clock = new TestClock();
  app = await startTestApp({ escalation: false, fetchTimeoutMs: 5000, webhookBaseDelayMs: 10 }, clock, {
    watchScheduler: true,
  });
  apiUrl = app.listen();
  key = (await app.createKey("max")).key;
  fc = new Firecrawl({ apiKey: key, apiUrl });
});

afterAll(async () => {
  await app.close();
  receiver.stop(true);
  await site.stop();
});

/** The SdkError a call rejects with. */
async function sdkError(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SdkError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** Waits until `count` deliveries have arrived (they are sent in the background). */
async function delivered(count: number) {
  for (let waited = 0; deliveries.length < count && waited < 5000; waited += 20) await Bun.sleep(20);
  await Bun.sleep(50);
  return deliveries;
}

const signed = (delivery: { headers: Headers; raw: string }) =>
  delivery.headers.get("x-firecrawl-signature") ===
  `sha256=${createHmac("sha256", SECRET).update(delivery.raw).digest("hex")}`;

type Check = { id: string; status: string; trigger: string; summary: Record<string, number> };

describe("the JS SDK's monitor methods", () => {
  test("create, run (baseline, then a change), checks, a check with its diff, webhooks, get, list, update, delete", async () => {
    deliveries.length = 0;
    setWatchPlans("sdk", WATCH_PLANS);
    const page = `${site.url}/watch/pricing/sdk`;
    const monitor = await fc.createMonitor({
      name: "Plans",
      schedule: { text: "every 30 minutes", timezone: "UTC" },
      targets: [{ type: "scrape", urls: [page], scrapeOptions: { includeTags: ["#plans"] } }],
      webhook: {
        url: `http://127.0.0.1:${receiver.port}/hook`,
        events: ["monitor.page", "monitor.check.completed"],
        metadata: { team: "pricing" },
        secret: SECRET,
      } as never,
    });
    expect(monitor).toMatchObject({
      name: "Plans",
      status: "active",
      schedule: { cron: "*/30 * * * *", text: "every 30 minutes", timezone: "UTC" },
      targets: [
        { type: "scrape", urls: [page], scrapeOptions: { onlyMainContent: true, includeTags: ["#plans"] } },
      ],
      webhook: { url: `http://127.0.0.1:${receiver.port}/hook`, metadata: { team: "pricing" } },
      lastCheckSummary: null,
      judgeEnabled: false,
    });
    expect(JSON.stringify(monitor)).not.toContain(SECRET);
    // The same watch on siphon's own API.
    const native = await app.request(`/v1/watch/${monitor.id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(
      ((await native.json()) as { watch: { checkIntervalMinutes: number } }).watch.checkIntervalMinutes,
    ).toBe(30);

    const first = (await fc.runMonitor(monitor.id)) as unknown as Check;
    expect(first).toMatchObject({
      monitorId: monitor.id,
      status: "completed",
      trigger: "manual",
      summary: { totalPages: 1, new: 1, same: 0, changed: 0, removed: 0, error: 0 },
    });
    setWatchPlans("sdk", [WATCH_PLANS[0]!, { name: "Pro", price: "$39 per month" }]);
    const second = (await fc.runMonitor(monitor.id)) as unknown as Check;
    expect(second.summary).toMatchObject({ changed: 1, new: 0 });

    const checks = (await fc.listMonitorChecks(monitor.id)) as unknown as Check[];
    expect(checks.map((c) => c.id)).toEqual([second.id, first.id]);
    expect((await fc.listMonitorChecks(monitor.id, { limit: 1, offset: 1 })).map((c) => c.id)).toEqual([
      first.id,
    ]);
    const detail = await fc.getMonitorCheck(monitor.id, second.id);
    expect(detail.pages).toHaveLength(1);
    expect(detail.pages[0]).toMatchObject({ url: page, status: "changed", statusCode: 200 });
    expect(detail.pages[0]?.diff?.text).toContain("-$29 per month\n+$39 per month\n");
    expect((await fc.getMonitorCheck(monitor.id, first.id)).pages[0]?.status).toBe("new");

    const hooks = await delivered(4);
    expect(hooks.map((d) => d.body.type)).toEqual([
      "monitor.page",
      "monitor.check.completed",
      "monitor.page",
      "monitor.check.completed",
    ]);
    expect(hooks.every(signed)).toBe(true);
    expect(hooks[2]?.body).toMatchObject({
      success: true,
      id: second.id,
      metadata: { team: "pricing" },
      data: [{ monitorId: monitor.id, checkId: second.id, url: page, status: "changed" }],
    });
    const changedPage = (hooks[2]?.body.data ?? []) as { diff: { text: string } }[];
    expect(changedPage[0]?.diff.text).toContain("+$39 per month");
    expect(hooks[3]?.body).toMatchObject({
      type: "monitor.check.completed",
      id: second.id,
      data: [{ monitorId: monitor.id, checkId: second.id, status: "completed", summary: { changed: 1 } }],
    });

    expect((await fc.getMonitor(monitor.id)).lastCheckSummary).toMatchObject({ changed: 1, totalPages: 1 });
    expect((await fc.listMonitors()).map((m) => m.id)).toContain(monitor.id);
    const paused = await fc.updateMonitor(monitor.id, {
      status: "paused",
      schedule: { cron: "0 */2 * * *" },
    });
    expect(paused).toMatchObject({ status: "paused", nextRunAt: null, schedule: { cron: "0 */2 * * *" } });
    const unhooked = await fc.updateMonitor(monitor.id, { webhook: null, name: "Plans (quiet)" });
    expect(unhooked).toMatchObject({ webhook: null, name: "Plans (quiet)" });

    expect(await fc.deleteMonitor(monitor.id)).toBe(true);
    expect((await sdkError(fc.getMonitor(monitor.id))).status).toBe(404);
  }, 30_000);

  test("what a watch cannot be is refused Firecrawl's way (400 with the reason)", async () => {
    const page = `${site.url}/watch/pricing/refused`;
    const base = {
      name: "x",
      schedule: { text: "hourly" },
      targets: [{ type: "scrape" as const, urls: [page] }],
    };
    const refusals: [Record<string, unknown>, string][] = [
      [{ targets: [{ type: "scrape", urls: [page, `${page}2`] }] }, "one page each"],
      [{ targets: [{ type: "crawl", url: page }] }, "no crawl target"],
      [{ targets: [{ type: "search", queries: ["x"] }] }, "no search target"],
      [{ schedule: { text: "daily at 9:00" } }, "not an interval"],
      [{ schedule: { cron: "0 9 * * 1-5" } }, "not a fixed interval"],
      [{ schedule: { cron: "*/1 * * * *" } }, "at least 5"],
      [{ schedule: {} }, "exactly one of cron or text"],
      [{ notification: { email: { enabled: true, recipients: ["a@example.com"] } } }, "notification"],
      [{ retentionDays: 30 }, "retentionDays"],
      [{ judgeEnabled: true }, "judgeEnabled"],
      [
        { targets: [{ type: "scrape", urls: [page], scrapeOptions: { actions: [{ type: "click" }] } }] },
        "actions",
      ],
      [{ targets: [{ type: "scrape", urls: [page], scrapeOptions: { formats: ["html"] } }] }, "formats"],
      [{ webhook: { url: "http://127.0.0.1:1/x", events: ["crawl.page"] } }, 'unknown event "crawl.page"'],
      [{ surprise: true }, 'Unrecognized key in body: "surprise"'],
    ];
    for (const [change, message] of refusals) {
      const error = await sdkError(fc.createMonitor({ ...base, ...change } as never));
      expect({ change, status: error.status, message: error.message }).toEqual({
        change,
        status: 400,
        message: expect.stringContaining(message),
      });
    }
    // Words and crons of fixed intervals are understood; a goal is accepted (with a warning), not kept.
    const schedules: [Record<string, string>, number][] = [
      [{ text: "every 2 hours" }, 120],
      [{ text: "daily" }, 1440],
      [{ cron: "15 * * * *" }, 60],
      [{ cron: "0 0 * * 0" }, 10_080],
    ];
    for (const [schedule, minutes] of schedules) {
      const made = await fc.createMonitor({ ...base, schedule, goal: "price changes" });
      const res = await app.request(`/v1/watch/${made.id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(
        ((await res.json()) as { watch: { checkIntervalMinutes: number } }).watch.checkIntervalMinutes,
      ).toBe(minutes);
      expect(made.goal).toBeNull();
      await fc.deleteMonitor(made.id);
    }
  });

  test("scheduled checks of a monitor send its webhooks too, on the movable clock", async () => {
    deliveries.length = 0;
    const page = `${site.url}/watch/pricing/scheduled`;
    const monitor = await fc.createMonitor({
      name: "Scheduled",
      schedule: { cron: "*/10 * * * *" },
      targets: [{ type: "scrape", urls: [page] }],
      webhook: { url: `http://127.0.0.1:${receiver.port}/s`, events: ["monitor.check.completed"] },
    });
    const scheduler = app.scheduler!;
    while ((await scheduler.tick()) > 0) await scheduler.idle();
    await scheduler.idle();
    const hooks = (await delivered(1)).filter((d) => d.body.type === "monitor.check.completed");
    expect(hooks.map((d) => (d.body.data as { monitorId: string }[])[0]?.monitorId)).toContain(monitor.id);
    // Only the event it asked for; unsigned without a secret.
    expect(deliveries.every((d) => d.body.type === "monitor.check.completed")).toBe(true);
    expect(deliveries[0]?.headers.get("x-firecrawl-signature")).toBeNull();
    const checks = (await fc.listMonitorChecks(monitor.id)) as unknown as Check[];
    expect(checks.map((c) => c.trigger)).toEqual(["scheduled"]);
    await fc.deleteMonitor(monitor.id);
  });
});

describe("firecrawl-mcp's monitor tools", () => {
  let client: Client;
  const stderr: string[] = [];

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: "node",
      args: [MCP_SERVER],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: app.home,
        FIRECRAWL_API_URL: apiUrl,
        FIRECRAWL_API_KEY: key,
      },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk) => stderr.push(String(chunk)));
    client = new Client({ name: "siphon-monitor-test", version: "1.0.0" });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => {
    await client.close();
  });

  type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
  async function call(name: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}\n${stderr.join("")}`);
    return JSON.parse(result.content[0]?.text ?? "null") as {
      success: boolean;
      data: unknown;
      pagination?: unknown;
    };
  }

  test("create (page and goal), run, checks, check, get, list, update, delete", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const tool of ["create", "list", "get", "update", "delete", "run", "checks", "check"])
      expect(names).toContain(`firecrawl_monitor_${tool}`);
    setWatchPlans("mcp", WATCH_PLANS);
    const page = `${site.url}/watch/pricing/mcp`;
    const created = await call("firecrawl_monitor_create", { page, goal: "Tell me when a price changes" });
    const monitor = created.data as { id: string; name: string; schedule: { cron: string } };
    expect(monitor).toMatchObject({ name: `Monitor ${page}`, schedule: { cron: "*/30 * * * *" } });

    const baseline = (await call("firecrawl_monitor_run", { id: monitor.id })).data as Check;
    expect(baseline.summary.new).toBe(1);
    setWatchPlans("mcp", [{ name: "Starter", price: "$12 per month" }, WATCH_PLANS[1]!]);
    const changed = (await call("firecrawl_monitor_run", { id: monitor.id })).data as Check;
    expect(changed.summary.changed).toBe(1);

    const checks = await call("firecrawl_monitor_checks", { id: monitor.id, limit: 5 });
    expect((checks.data as Check[]).map((c) => c.id)).toEqual([changed.id, baseline.id]);
    expect(checks.pagination).toEqual({ limit: 5, offset: 0, hasMore: false });
    const detail = (await call("firecrawl_monitor_check", { id: monitor.id, checkId: changed.id })).data as {
      pages: { status: string; diff: { text: string } }[];
    };
    expect(detail.pages[0]?.status).toBe("changed");
    expect(detail.pages[0]?.diff.text).toContain("+$12 per month");
    const onlySame = await call("firecrawl_monitor_check", {
      id: monitor.id,
      checkId: changed.id,
      pageStatus: "same",
    });
    expect((onlySame.data as { pages: unknown[] }).pages).toEqual([]);

    const got = (await call("firecrawl_monitor_get", { id: monitor.id })).data as {
      lastCheckSummary: unknown;
    };
    expect(got.lastCheckSummary).toMatchObject({ changed: 1 });
    const listed = await call("firecrawl_monitor_list", { limit: 100 });
    expect((listed.data as { id: string }[]).map((m) => m.id)).toContain(monitor.id);
    const updated = await call("firecrawl_monitor_update", { id: monitor.id, body: { status: "paused" } });
    expect((updated.data as { status: string }).status).toBe("paused");
    expect((await call("firecrawl_monitor_delete", { id: monitor.id })).success).toBe(true);
    const gone = (await client.callTool({
      name: "firecrawl_monitor_get",
      arguments: { id: monitor.id },
    })) as ToolResult;
    expect(gone.isError).toBe(true);
    expect(gone.content[0]?.text).toContain(`No watch ${monitor.id}`);
  }, 60_000);
});

describe("firecrawl-cli's monitor commands", () => {
  /** Runs `firecrawl monitor <args>` against siphon, in an empty home, no update check, no telemetry. */
  async function firecrawl(args: string[]) {
    const child = Bun.spawn(["node", CLI, "monitor", ...args, "--api-url", apiUrl, "--api-key", key], {
      cwd: app.home,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: app.home,
        FIRECRAWL_NO_UPDATE_CHECK: "1",
        FIRECRAWL_NO_TELEMETRY: "1",
        NO_COLOR: "1",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    if (code !== 0) throw new Error(`firecrawl monitor ${args[0]} exited ${code}: ${stderr}`);
    return JSON.parse(stdout) as { success: boolean; data: Record<string, unknown> & { id: string } };
  }

  test("create from flags, run, update --state paused, delete", async () => {
    const page = `${site.url}/watch/pricing/cli`;
    const created = await firecrawl([
      "create",
      "--name",
      "CLI plans",
      "--schedule",
      "every 15 minutes",
      "--page",
      page,
    ]);
    expect(created.data).toMatchObject({ name: "CLI plans", schedule: { cron: "*/15 * * * *" } });
    const run = await firecrawl(["run", created.data.id]);
    expect(run.data).toMatchObject({ status: "completed", summary: { new: 1 } });
    const paused = await firecrawl(["update", created.data.id, "--state", "paused"]);
    expect(paused.data.status).toBe("paused");
    expect((await firecrawl(["delete", created.data.id])).success).toBe(true);
  }, 30_000);
});
