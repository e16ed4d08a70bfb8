/**
 * MCP overhead benchmark: the round-trip time of siphon_fetch on a cached page over the hosted
 * MCP endpoint (POST /mcp, stateless Streamable HTTP) against the same fetch over REST
 * (GET /v1/fetch), in one run against one `siphon serve` process on loopback, with a key, the
 * burst window and the usage log on for both. Calls are sequential and interleaved (REST, MCP,
 * REST, …) so that drift of the machine touches both alike; the figure is the difference of the
 * medians (and of the p90s).
 *
 * Three ways of calling, all on the same cached page:
 * - rest: GET /v1/fetch?url=… (the JSON body read).
 * - mcp: POST /mcp with one tools/call message, as any MCP client sends it (JSON answer read).
 * - sdk: the SDK's own Client (StreamableHTTPClientTransport, callTool), which adds its own
 *   parsing and output-schema validation on the client side.
 *
 *   bun scripts/bench/mcp.ts [--calls 1000] [--warmup 200] [--json]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { median, round1 } from "./stats.ts";

const calls = numberFlag("calls", 1000);
const warmup = numberFlag("warmup", 200);
const root = new URL("../..", import.meta.url).pathname;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

async function main() {
  const site = await startFixtureSite();
  const home = mkdtempSync(join(tmpdir(), "siphon-bench-mcp-"));
  const env = {
    ...process.env,
    SIPHON_HOME: home,
    DISABLE_SSRF_PROTECTION: "true",
    // A plan whose burst limit the benchmark cannot reach: the cost measured is the bookkeeping, not 429s.
    SIPHON_PLANS: JSON.stringify({ pro: { weeklyQuota: 1e9, burstPerHour: 1e9 } }),
  };
  const made = Bun.spawnSync(
    ["bun", "cli/main.ts", "keys", "create", "--name", "bench", "--tier", "pro", "--json"],
    {
      cwd: root,
      env,
    },
  );
  const key = JSON.parse(made.stdout.toString()).key as string;
  const server = Bun.spawn(["bun", "cli/main.ts", "serve", "--port", "0"], {
    cwd: root,
    env,
    stderr: "pipe",
  });
  try {
    const reader = (server.stderr as ReadableStream<Uint8Array>).getReader();
    let banner = "";
    while (!/listening on (http:\/\/\S+)/.test(banner)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`server exited: ${banner}`);
      banner += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const base = /listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? "";
    const page = `${site.url}/article`;
    const auth = { authorization: `Bearer ${key}` };

    const restUrl = `${base}/v1/fetch?url=${encodeURIComponent(page)}`;
    const rest = async () => {
      const res = await fetch(restUrl, { headers: auth });
      const body = (await res.json()) as { content?: string };
      if (res.status !== 200 || !body.content) throw new Error(`REST ${res.status}`);
      if (res.headers.get("x-cache") !== "HIT") throw new Error("REST: not a cache hit");
    };
    const mcpBody = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "siphon_fetch", arguments: { url: page } },
    });
    const mcpHeaders = {
      ...auth,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2025-06-18",
    };
    const mcp = async () => {
      const res = await fetch(`${base}/mcp`, { method: "POST", headers: mcpHeaders, body: mcpBody });
      const body = (await res.json()) as {
        result?: { isError?: boolean; structuredContent?: { cached?: boolean } };
      };
      if (res.status !== 200 || !body.result || body.result.isError) throw new Error(`MCP ${res.status}`);
      if (!body.result.structuredContent?.cached) throw new Error("MCP: not a cache hit");
    };
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }),
    );
    const sdk = async () => {
      const result = await client.callTool({ name: "siphon_fetch", arguments: { url: page } });
      if (result.isError) throw new Error("SDK: tool error");
    };

    // The first fetch fills the cache; every measured call is a hit.
    await fetch(restUrl, { headers: auth }).then((res) => res.arrayBuffer());
    const ways = { rest, mcp, sdk } as const;
    const times: Record<keyof typeof ways, number[]> = { rest: [], mcp: [], sdk: [] };
    // Warm-up calls are not counted.
    for (let i = 0; i < warmup + calls; i++) {
      for (const name of Object.keys(ways) as (keyof typeof ways)[]) {
        const started = performance.now();
        await ways[name]();
        if (i >= warmup) times[name].push(performance.now() - started);
      }
    }
    await client.close();

    const stats = (name: keyof typeof ways) => ({
      median: round2(median(times[name])),
      p90: round2(percentile(times[name], 90)),
    });
    const result = {
      calls,
      page,
      restMs: stats("rest"),
      mcpMs: stats("mcp"),
      sdkMs: stats("sdk"),
      overheadMs: {
        median: round2(median(times.mcp) - median(times.rest)),
        p90: round2(percentile(times.mcp, 90) - percentile(times.rest, 90)),
      },
      sdkOverheadMs: {
        median: round2(median(times.sdk) - median(times.rest)),
        p90: round2(percentile(times.sdk, 90) - percentile(times.rest, 90)),
      },
    };
    if (hasFlag("json")) console.log(JSON.stringify(result, null, 2));
    else {
      console.log(
        `siphon_fetch on a cached page, ${calls} calls each, interleaved, one siphon serve on loopback`,
      );
      console.log(`REST GET /v1/fetch      median ${result.restMs.median} ms   p90 ${result.restMs.p90} ms`);
      console.log(`MCP POST /mcp (JSON)    median ${result.mcpMs.median} ms   p90 ${result.mcpMs.p90} ms`);
      console.log(`MCP, the SDK's Client   median ${result.sdkMs.median} ms   p90 ${result.sdkMs.p90} ms`);
      console.log(
        `MCP overhead per call   median ${result.overheadMs.median} ms   p90 ${result.overheadMs.p90} ms` +
          `   (SDK client: ${round1(result.sdkOverheadMs.median)} ms)`,
      );
    }
  } finally {
    server.kill();
    await server.exited;
    await site.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
