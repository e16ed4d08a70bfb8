import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { type Config, loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import {
  checkWebhookTarget,
  createWebhookSender,
  registerWebhookShape,
  signPayload,
  type WebhookConfig,
} from "./webhooks.ts";

type Outcome = "ok" | "fail" | "hang" | "redirect";
interface Received {
  path: string;
  headers: Headers;
  body: string;
  at: number;
  outcome: Outcome;
}

// Longer than the 300 ms webhookTimeoutMs below, so a hang is a timeout to the sender.
const HANG_MS = 700;

/** A webhook receiver on loopback; `plan` holds the outcome of the next requests (then 200). */
function startReceiver() {
  const received: Received[] = [];
  const plan: Outcome[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.text();
      const outcome = plan.shift() ?? "ok";
      const path = new URL(request.url).pathname;
      received.push({ path, headers: request.headers, body, at: performance.now(), outcome });
      if (outcome === "fail") return new Response("nope", { status: 500 });
      if (outcome === "redirect") return new Response(null, { status: 302, headers: { location: "/moved" } });
      if (outcome === "hang") await Bun.sleep(HANG_MS);
      return new Response("ok");
    },
  });
  return {
    port: server.port,
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    plan,
    /** Payloads the receiver acknowledged, in arrival order. */
    delivered: () => received.filter((r) => r.outcome === "ok").map((r) => JSON.parse(r.body)),
    stop: () => server.stop(true),
  };
}

function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      home: "/tmp/x",
      disableSsrfProtection: true,
      webhookBaseDelayMs: 20,
      webhookTimeoutMs: 300,
      ...overrides,
    },
  );
}

let receiver: ReturnType<typeof startReceiver>;
let logs: string[];
beforeEach(() => {
  receiver = startReceiver();
  logs = [];
});
afterEach(() => receiver.stop());

function sender(overrides: Partial<Config> = {}, now?: () => number) {
  return createWebhookSender(testConfig(overrides), { log: (m) => logs.push(m), now });
}

describe("checkWebhookTarget", () => {
  test("requires https while SSRF protection is on", () => {
    const config = testConfig({ disableSsrfProtection: false });
    expect(checkWebhookTarget("https://hooks.example.com/x", config).href).toBe(
      "https://hooks.example.com/x",
    );
    const error = (() => {
      try {
        checkWebhookTarget("http://hooks.example.com/x", config);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SiphonError);
    expect((error as SiphonError).type).toBe("invalid_request");
    expect((error as SiphonError).message).toBe("webhook url must be https://");
  });

  test("allows http when SSRF protection is off", () => {
    expect(checkWebhookTarget("http://127.0.0.1:9/hook", testConfig()).port).toBe("9");
  });

  test("refuses literal internal addresses up front unless allow-listed", () => {
    const config = testConfig({ disableSsrfProtection: false });
    for (const url of [
      "https://127.0.0.1/h",
      "https://10.1.2.3/h",
      "https://[::1]/h",
      "https://localhost/h",
    ]) {
      expect(() => checkWebhookTarget(url, config)).toThrow(
        expect.objectContaining({ type: "forbidden_url" }),
      );
    }
    const allowed = testConfig({ disableSsrfProtection: false, ssrfAllow: "127.0.0.1:8443" });
    expect(checkWebhookTarget("https://127.0.0.1:8443/h", allowed).hostname).toBe("127.0.0.1");
  });

  test("applies the URL rules", () => {
    const config = testConfig();
    expect(() => checkWebhookTarget("ftp://example.com/", config)).toThrow(
      expect.objectContaining({ type: "forbidden_url" }),
    );
    expect(() => checkWebhookTarget("", config)).toThrow(
      expect.objectContaining({ type: "invalid_request" }),
    );
  });
});

describe("createWebhookSender", () => {
  test("signs the raw body with the secret and names the event", async () => {
    const webhooks = sender();
    webhooks.send({ url: receiver.url, secret: "s3cret" }, "started", { jobId: "j1", type: "crawl" });
    await webhooks.drain();
    const [request] = receiver.received;
    const expected = `sha256=${createHmac("sha256", "s3cret").update(request!.body).digest("hex")}`;
    expect(request!.headers.get("x-siphon-signature")).toBe(expected);
    expect(signPayload("s3cret", request!.body)).toBe(expected);
    expect(request!.headers.get("x-siphon-event")).toBe("started");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(request!.headers.get("user-agent")).toBe("siphon-webhooks/1");
  });

  test("a hook with another surface's shape is delivered as that surface's shaper makes it", async () => {
    const restore = registerWebhookShape("test-surface", {
      deliver: (hook, event, data) => ({
        body: JSON.stringify({ kind: `${hook.shape?.type}.${event}`, job: data.jobId }),
        headers: { "x-test-signature": `signed:${hook.secret}` },
      }),
      reservedHeaders: ["x-test-signature"],
    });
    const webhooks = sender();
    webhooks.send(
      {
        url: receiver.url,
        secret: "k",
        shape: { surface: "test-surface", type: "crawl" },
        // A receiver's own headers go along, but never replace the shaper's signature.
        headers: { "x-test-signature": "forged", "x-trace": "t1" },
      },
      "page",
      { jobId: "j9" },
    );
    await webhooks.drain();
    const [request] = receiver.received;
    expect(JSON.parse(request!.body)).toEqual({ kind: "crawl.page", job: "j9" });
    expect(request!.headers.get("x-test-signature")).toBe("signed:k");
    expect(request!.headers.get("x-trace")).toBe("t1");
    expect(request!.headers.has("x-siphon-signature")).toBe(false);
    restore();
  });

  test("a hook stored before shapes had names (firecrawl: {type}) still takes the firecrawl shape", async () => {
    const restore = registerWebhookShape("firecrawl", {
      deliver: (hook, event) => ({
        body: JSON.stringify({ shaped: `${hook.shape?.type}.${event}` }),
        headers: {},
      }),
      reservedHeaders: [],
    });
    const webhooks = sender();
    const legacy = { url: receiver.url, firecrawl: { type: "monitor" } } as unknown as WebhookConfig;
    webhooks.send(legacy, "completed", { checkId: "c1" });
    await webhooks.drain().finally(restore);
    expect(JSON.parse(receiver.received[0]!.body)).toEqual({ shaped: "monitor.completed" });
  });

  test("sends no signature without a secret", async () => {
    const webhooks = sender();
    webhooks.send({ url: receiver.url }, "started", { jobId: "j1" });
    await webhooks.drain();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.has("x-siphon-signature")).toBe(false);
  });

  test("payload carries event, timestamp, data and echoed metadata", async () => {
    const webhooks = sender({}, () => Date.UTC(2024, 0, 2, 3, 4, 5));
    const hook = { url: receiver.url, metadata: { team: "blue", n: 1 } };
    webhooks.send(hook, "completed", { jobId: "j1", total: 2, completed: 2 });
    await webhooks.drain();
    expect(receiver.delivered()).toEqual([
      {
        event: "completed",
        timestamp: "2024-01-02T03:04:05.000Z",
        data: { jobId: "j1", total: 2, completed: 2 },
        metadata: { team: "blue", n: 1 },
      },
    ]);
  });

  test("skips events the hook did not subscribe to", async () => {
    const webhooks = sender();
    const hook: WebhookConfig = { url: receiver.url, events: ["completed"] };
    webhooks.send(hook, "started", { jobId: "j1" });
    webhooks.send(hook, "page", { jobId: "j1" });
    webhooks.send(hook, "completed", { jobId: "j1" });
    await webhooks.drain();
    expect(receiver.received.map((r) => r.headers.get("x-siphon-event"))).toEqual(["completed"]);
  });

  test("retries after two failures and delivers once", async () => {
    receiver.plan.push("fail", "fail");
    const webhooks = sender();
    webhooks.send({ url: receiver.url }, "started", { jobId: "j1" });
    await webhooks.drain();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.delivered()).toHaveLength(1);
    expect(logs).toEqual([]);
  });

  test("gives up after 1 + 3 attempts, with growing backoff, without throwing", async () => {
    receiver.plan.push("fail", "fail", "fail", "fail", "fail");
    const webhooks = sender();
    expect(() => webhooks.send({ url: receiver.url }, "failed", { jobId: "j1" })).not.toThrow();
    await webhooks.drain();
    expect(receiver.received).toHaveLength(4);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("4 attempt(s)");
    const times = receiver.received.map((r) => r.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // Base 20 ms: waits of 20, 40, 80 ms; timers never fire early, so lower bounds are safe.
    expect(gaps[0]!).toBeGreaterThanOrEqual(18);
    expect(gaps[1]!).toBeGreaterThanOrEqual(38);
    expect(gaps[2]!).toBeGreaterThanOrEqual(78);
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
  });

  test("a hanging receiver times out and is retried; send never blocks", async () => {
    receiver.plan.push("hang");
    const webhooks = sender();
    const before = performance.now();
    webhooks.send({ url: receiver.url }, "started", { jobId: "j1" });
    expect(performance.now() - before).toBeLessThan(50);
    await webhooks.drain();
    expect(receiver.received.map((r) => r.outcome)).toEqual(["hang", "ok"]);
    expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(300);
  });

  test("a redirect is a failure and is not followed", async () => {
    receiver.plan.push("redirect");
    const webhooks = sender();
    webhooks.send({ url: receiver.url }, "started", { jobId: "j1" });
    await webhooks.drain();
    expect(receiver.received.map((r) => [r.path, r.outcome])).toEqual([
      ["/hook", "redirect"],
      ["/hook", "ok"],
    ]);
  });

  test("keeps one job's events in order, even across retries", async () => {
    receiver.plan.push("fail");
    const webhooks = sender();
    const hook = { url: receiver.url };
    webhooks.send(hook, "started", { jobId: "j1" });
    webhooks.send(hook, "page", { jobId: "j1", url: "https://a.example/1" });
    webhooks.send(hook, "page", { jobId: "j1", url: "https://a.example/2" });
    webhooks.send(hook, "completed", { jobId: "j1", total: 2, completed: 2 });
    await webhooks.drain();
    expect(receiver.delivered().map((p) => [p.event, p.data.url])).toEqual([
      ["started", undefined],
      ["page", "https://a.example/1"],
      ["page", "https://a.example/2"],
      ["completed", undefined],
    ]);
  });

  test("a slow job does not hold up another job's deliveries", async () => {
    receiver.plan.push("hang");
    const webhooks = sender();
    webhooks.send({ url: receiver.url }, "started", { jobId: "slow" });
    await Bun.sleep(20);
    webhooks.send({ url: receiver.url }, "started", { jobId: "fast" });
    await webhooks.drain();
    expect(receiver.delivered().map((p) => p.data.jobId)).toEqual(["fast", "slow"]);
  });

  test("refuses a loopback target at delivery while SSRF protection is on", async () => {
    const webhooks = sender({ disableSsrfProtection: false });
    webhooks.send({ url: receiver.url }, "started", { jobId: "j1" });
    await webhooks.drain();
    expect(receiver.received).toHaveLength(0);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("1 attempt(s)");
    expect(logs[0]).toContain("not a public address");
  });

  test("delivers to an allow-listed receiver while SSRF protection is on", async () => {
    const webhooks = sender({ disableSsrfProtection: false, ssrfAllow: `127.0.0.1:${receiver.port}` });
    webhooks.send({ url: receiver.url }, "started", { jobId: "j1" });
    await webhooks.drain();
    expect(receiver.delivered()).toHaveLength(1);
  });

  test("redirects of an allowed receiver (301, 302, 303, 307, 308) towards an internal address are never followed", async () => {
    let internalHits = 0;
    const internal = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        internalHits++;
        return new Response("ok");
      },
    });
    let code = 301;
    const redirector = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(null, {
          status: code,
          headers: { location: `http://127.0.0.1:${internal.port}/admin` },
        }),
    });
    try {
      for (code of [301, 302, 303, 307, 308]) {
        logs.length = 0;
        const webhooks = sender({ disableSsrfProtection: false, ssrfAllow: `127.0.0.1:${redirector.port}` });
        webhooks.send({ url: `http://127.0.0.1:${redirector.port}/hook` }, "started", { jobId: "j1" });
        await webhooks.drain();
        expect(logs[0]).toContain(`HTTP ${code}`);
      }
      expect(internalHits).toBe(0);
    } finally {
      internal.stop(true);
      redirector.stop(true);
    }
  });

  test("connects to the checked address, not a fresh lookup of the name", async () => {
    const resolved: string[] = [];
    const webhooks = createWebhookSender(testConfig(), {
      log: (m) => logs.push(m),
      resolver: async (name) => {
        resolved.push(name);
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    webhooks.send({ url: `http://hooks.test:${receiver.port}/hook` }, "started", { jobId: "j1" });
    await webhooks.drain();
    expect(resolved).toEqual(["hooks.test"]);
    expect(receiver.received[0]!.headers.get("host")).toBe(`hooks.test:${receiver.port}`);
  });

  test("drain resolves at once when nothing is queued", async () => {
    await sender().drain();
  });
});
