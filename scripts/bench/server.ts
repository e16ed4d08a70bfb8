/**
 * Server benchmark: requests per second and p99 latency of a cached
 * GET /v1/fetch with auth and limits on (a key, burst window, weekly quota,
 * usage headers, request log) against the same route with SIPHON_AUTH=off,
 * in one run. Both servers run as real `siphon serve` processes on loopback
 * under wrk (autocannon when wrk is missing).
 *
 * Two measurements:
 * - alone: the servers take turns, each with the core to itself, for the
 *   absolute requests/s and p99 latency. On a shared machine single turns
 *   swing by 15-30%, so their cost (median of back-to-back pairs) is noisy.
 * - shared (the cost figure): both servers are loaded at once on the same
 *   core, so the scheduler gives each half of it and whatever else the
 *   machine does at any moment slows both alike. Each server's requests per
 *   CPU second (from /proc) then go as 1 / (its work per request), and
 *   1 - on/off of those is the throughput the auth and metering work costs
 *   (the split of the core is near, not exactly, even). Its rounds agree
 *   within a few percent.
 *
 * With two or more cores, wrk runs on the first and the servers on the last
 * (taskset; --no-pin leaves placement to the scheduler and skips the shared
 * rounds, which need the servers on one core).
 *
 * --aa runs both servers with auth off: an A/A check whose cost should be ~0.
 *
 *   bun scripts/bench/server.ts [--seconds 3] [--rounds 6] [--shared-rounds 10] [--connections 16] [--json] [--verbose] [--no-pin] [--aa]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { median } from "./stats.ts";

const seconds = numberFlag("seconds", 3);
const rounds = numberFlag("rounds", 6);
const connections = numberFlag("connections", 16);
const sharedRoundsWanted = numberFlag("shared-rounds", 10);
const root = new URL("../..", import.meta.url).pathname;

/**
 * The load generator and the servers each get a core of their own when the
 * machine has two or more and taskset is there: left to the scheduler, the
 * server shares a core with wrk in some runs and not in others, which moved
 * a server's rate by 30% from one process to the next.
 */
const cores = navigator.hardwareConcurrency;
const taskset = Bun.which("taskset") && cores >= 2 && !hasFlag("no-pin") ? "taskset" : null;
const pin = (core: number) => (taskset ? [taskset, "-c", String(core)] : []);
const serverCore = cores - 1;
const loadCore = 0;
const sharedRounds = taskset ? sharedRoundsWanted : 0;

interface Server {
  name: string;
  base: string;
  pid: number;
  headers: Record<string, string>;
  stop(): void;
}

async function startServer(name: string, auth: string): Promise<Server> {
  const home = mkdtempSync(join(tmpdir(), "siphon-bench-"));
  // A plan whose burst limit the benchmark cannot reach: the cost measured is the bookkeeping, not 429s.
  const env = {
    ...process.env,
    SIPHON_HOME: home,
    SIPHON_AUTH: auth,
    DISABLE_SSRF_PROTECTION: "true",
    SIPHON_PLANS: JSON.stringify({ pro: { weeklyQuota: 1e9, burstPerHour: 1e9 } }),
  };
  const headers: Record<string, string> = {};
  if (auth === "required") {
    const made = Bun.spawnSync(
      ["bun", "cli/main.ts", "keys", "create", "--name", "bench", "--tier", "pro", "--json"],
      {
        cwd: root,
        env,
      },
    );
    headers.authorization = `Bearer ${JSON.parse(made.stdout.toString()).key}`;
  }
  const server = Bun.spawn([...pin(serverCore), "bun", "cli/main.ts", "serve", "--port", "0"], {
    cwd: root,
    env,
    stderr: "pipe",
  });
  const reader = (server.stderr as ReadableStream<Uint8Array>).getReader();
  let banner = "";
  while (!/listening on (http:\/\/\S+)/.test(banner)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${name}: server exited: ${banner}`);
    banner += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const base = /listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? "";
  return {
    name,
    base,
    pid: server.pid,
    headers,
    stop() {
      server.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

interface Load {
  rps: number;
  p99: number;
  non2xx: number;
}

/** CPU time (user + system, all threads) a process has used so far, in clock ticks. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at the state; utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

// wrk (C) costs the shared 2 cores far less than autocannon (JavaScript), so it skews the ratio less.
const wrk = Bun.which("wrk");

function milliseconds(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : n;
}

async function runWrk(url: string, headers: Record<string, string>): Promise<Load> {
  const headerArgs = Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
  const proc = Bun.spawn([
    ...pin(loadCore),
    wrk!,
    "-t",
    "1",
    "-c",
    String(connections),
    "-d",
    `${seconds}s`,
    "--latency",
    ...headerArgs,
    url,
  ]);
  const out = await new Response(proc.stdout).text();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p99: p99 ? milliseconds(p99[1]!, p99[2]!) : 0, non2xx };
}

function runAutocannon(url: string, headers: Record<string, string>): Promise<Load> {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections, duration: seconds }, (error, result) =>
      error
        ? reject(error)
        : resolve({ rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx }),
    );
  });
}

const run = wrk ? runWrk : runAutocannon;

const site = await startFixtureSite();
const servers = [
  // --aa: both servers off, to check the method itself (the cost should come out near 0).
  hasFlag("aa")
    ? await startServer("auth off (A/A)", "off")
    : await startServer("auth + limits on", "required"),
  await startServer("auth + limits off", "off"),
];
const path = `/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&format=text`;
const totals = new Map<string, { rps: number[]; p99: number[]; non2xx: number }>();
/** Each round's cost (1 - on/off, both measured back to back): machine noise drifts, pairs share it. */
const pairCosts: number[] = [];
/** Each shared round's cost per CPU time: both servers loaded at once on one core, so every moment's noise hits both. */
const sharedCosts: number[] = [];
/** The same rounds' cost from the rates alone (as if the core were split exactly in half). */
const sharedRateCosts: number[] = [];
try {
  for (const s of servers) {
    const warm = await fetch(`${s.base}${path}`, { headers: s.headers });
    if (warm.status !== 200) throw new Error(`${s.name}: warm-up answered ${warm.status}`);
    await run(`${s.base}${path}`, s.headers); // JIT and cache warm-up, not counted
  }
  for (let round = 0; round < rounds; round++) {
    const rates = [0, 0];
    for (const i of round % 2 ? [1, 0] : [0, 1]) {
      const s = servers[i] as Server;
      const result = await run(`${s.base}${path}`, s.headers);
      if (hasFlag("verbose")) console.error(`round ${round + 1}: ${s.name}: ${Math.round(result.rps)} req/s`);
      rates[i] = result.rps;
      const t = totals.get(s.name) ?? { rps: [], p99: [], non2xx: 0 };
      t.rps.push(result.rps);
      t.p99.push(result.p99);
      t.non2xx += result.non2xx;
      totals.set(s.name, t);
    }
    pairCosts.push(1 - (rates[0] as number) / (rates[1] as number));
  }
  for (let round = 0; round < sharedRounds; round++) {
    const before = servers.map((s) => cpuTicks(s.pid));
    const [on, off] = (await Promise.all(servers.map((s) => run(`${s.base}${path}`, s.headers)))) as [
      Load,
      Load,
    ];
    const [cpuOn, cpuOff] = servers.map((s, i) => cpuTicks(s.pid) - (before[i] as number)) as [
      number,
      number,
    ];
    if (on.non2xx || off.non2xx) throw new Error("error answers in a shared round: the figure would flatter");
    if (hasFlag("verbose"))
      console.error(
        `shared round ${round + 1}: on ${Math.round(on.rps)} req/s on ${cpuOn} ticks, ` +
          `off ${Math.round(off.rps)} req/s on ${cpuOff} ticks`,
      );
    // The scheduler splits the core nearly, not exactly, evenly: the cost is per CPU time each server got.
    sharedCosts.push(1 - on.rps / cpuOn / (off.rps / cpuOff));
    sharedRateCosts.push(1 - on.rps / off.rps);
  }
} finally {
  for (const s of servers) s.stop();
  await site.stop();
}

const rows = servers.map((s) => {
  const t = totals.get(s.name)!;
  return {
    server: s.name,
    rps: Math.round(median(t.rps)),
    p99: Math.round(median(t.p99) * 10) / 10,
    non2xx: t.non2xx,
  };
});
const [on, off] = rows as [(typeof rows)[0], (typeof rows)[0]];
const percent = (x: number) => Math.round(x * 1000) / 10;
const aloneCost = percent(median(pairCosts));
const aloneMedianRateCost = percent(1 - on.rps / off.rps);
const shared = sharedRounds
  ? {
      rounds: sharedRounds,
      costPercent: percent(median(sharedCosts)),
      lowPercent: percent(Math.min(...sharedCosts)),
      highPercent: percent(Math.max(...sharedCosts)),
      rateCostPercent: percent(median(sharedRateCosts)),
    }
  : null;
if (hasFlag("json"))
  console.log(
    JSON.stringify({
      seconds,
      connections,
      aa: hasFlag("aa"),
      alone: { rounds, rows, costPercent: aloneCost, medianRateCostPercent: aloneMedianRateCost },
      shared,
    }),
  );
else {
  console.log(`cached GET /v1/fetch, ${connections} connections, ${seconds} s per round\n`);
  console.log(
    `alone (each server with the core to itself, ${rounds} rounds each, alternating; medians of rounds):\n`,
  );
  console.log("| server | requests/s | p99 latency (ms) | non-2xx (all rounds) |");
  console.log("|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.server} | ${r.rps} | ${r.p99} | ${r.non2xx} |`);
  console.log(
    `\nalone: on/off cost ${aloneCost}% (median of the back-to-back pairs; ${aloneMedianRateCost}% from the median rates): noisy`,
  );
  if (shared)
    console.log(
      `shared (both servers loaded at once on one core, ${shared.rounds} rounds): ` +
        `auth + metering cost ${shared.costPercent}% of throughput ` +
        `per CPU second (median; rounds ${shared.lowPercent}% to ${shared.highPercent}%; ` +
        `${shared.rateCostPercent}% from the rates alone; target: under 15%)`,
    );
}
