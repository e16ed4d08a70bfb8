/**
 * Server benchmark: requests per second and p99 latency of a cached GET /v1/fetch through the
 * whole server, against a bare `Bun.serve` answering the same bytes (scripts/bench/bare-server.ts:
 * the status, every header and the body of a real cached answer, recorded at the start). Servers,
 * all real processes on loopback under wrk (autocannon when wrk is missing):
 *
 * - bare: the runtime's own limit for that answer, the reference.
 * - local: `siphon serve` with optional auth and no key, the local account (unmetered plan;
 *   usage headers and the request log still written).
 * - metered: `siphon serve` with SIPHON_AUTH=required and an API key on a metered plan (burst
 *   window, weekly quota, usage headers, request log), with limits the benchmark cannot reach.
 * - off: `siphon serve` with SIPHON_AUTH=off, for what auth and metering cost.
 *
 * Two measurements:
 * - alone: the servers take turns, each with the core to itself, in an order that rotates
 *   every round; each round gives the ratios local/bare and metered/bare, and the figures are
 *   medians of rounds. Requests per CPU second of each server (from /proc) come beside the
 *   rates: a turn the machine slows elsewhere lowers a rate more than the work per request.
 * - shared (the cost of auth and metering): metered and off are loaded at once on the same
 *   core, so whatever else the machine does at any moment slows both alike. Each server's
 *   requests per CPU second then go as 1 / (its work per request), and 1 - metered/off of those
 *   is the throughput the auth and metering work costs.
 *
 * With two or more cores, wrk runs on the first and the servers on the last (taskset; --no-pin
 * leaves placement to the scheduler and skips the shared rounds, which need one core).
 *
 * --aa runs the metered server with auth off too: an A/A check whose cost should be ~0.
 *
 *   bun scripts/bench/server.ts [--seconds 3] [--rounds 8] [--shared-rounds 6] [--connections 16] [--json] [--verbose] [--no-pin] [--aa]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { hasFlag, numberFlag } from "./flags.ts";
import { median } from "./stats.ts";

const seconds = numberFlag("seconds", 3);
const rounds = numberFlag("rounds", 8);
const connections = numberFlag("connections", 16);
const sharedRoundsWanted = numberFlag("shared-rounds", 6);
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

type Name = "bare" | "local" | "metered" | "off";

interface Server {
  name: Name;
  label: string;
  base: string;
  pid: number;
  headers: Record<string, string>;
  stop(): void;
}

/** Starts `command` pinned to the servers' core and waits for its `listening on URL` line. */
async function spawnServer(
  command: string[],
  env: Record<string, string | undefined>,
): Promise<{ base: string; proc: Bun.Subprocess }> {
  const proc = Bun.spawn([...pin(serverCore), ...command], { cwd: root, env, stderr: "pipe" });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let banner = "";
  while (!/listening on (http:\/\/\S+)/.test(banner)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${command.join(" ")}: exited: ${banner}`);
    banner += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { base: /listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? "", proc };
}

const LABELS: Record<Name, string> = {
  bare: "bare Bun.serve (same answer)",
  local: "siphon, local account",
  metered: "siphon, key on a metered plan",
  off: "siphon, auth off",
};

async function startSiphon(name: Name, auth: string): Promise<Server> {
  const home = mkdtempSync(join(tmpdir(), "siphon-bench-"));
  // A plan whose limits the benchmark cannot reach: the cost measured is the bookkeeping, not 429s.
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
      { cwd: root, env },
    );
    headers.authorization = `Bearer ${JSON.parse(made.stdout.toString()).key}`;
  }
  const { base, proc } = await spawnServer(["bun", "cli/main.ts", "serve", "--port", "0"], env);
  return {
    name,
    label: hasFlag("aa") && name === "metered" ? "siphon, auth off (A/A)" : LABELS[name],
    base,
    pid: proc.pid,
    headers,
    stop() {
      proc.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The bare reference, answering what `answer` (a real cached answer of siphon's) holds. */
async function startBare(answer: Response): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), "siphon-bench-bare-"));
  const headers: Record<string, string> = {};
  // Bun writes Date and Content-Length itself, as it does for siphon.
  for (const [name, value] of answer.headers)
    if (name !== "date" && name !== "content-length") headers[name] = value;
  const file = join(dir, "answer.json");
  writeFileSync(file, JSON.stringify({ status: answer.status, headers, body: await answer.text() }));
  const { base, proc } = await spawnServer(["bun", "scripts/bench/bare-server.ts", file], process.env);
  return {
    name: "bare",
    label: LABELS.bare,
    base,
    pid: proc.pid,
    headers: {},
    stop() {
      proc.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Load {
  rps: number;
  p99: number;
  non2xx: number;
}

const TICKS_PER_SECOND = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

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
const path = `/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&format=text`;
const servers: Server[] = [];
interface Totals {
  rps: number[];
  perCpu: number[];
  p99: number[];
  non2xx: number;
}
const totals = new Map<Name, Totals>();
/** Each round's local/bare and metered/bare, of rates and of requests per CPU second. */
const ratios = {
  local: [] as number[],
  metered: [] as number[],
  localCpu: [] as number[],
  meteredCpu: [] as number[],
};
/** Each shared round's cost per CPU time: metered and off loaded at once on one core. */
const sharedCosts: number[] = [];
/** The same rounds' cost from the rates alone (as if the core were split exactly in half). */
const sharedRateCosts: number[] = [];
try {
  const local = await startSiphon("local", "optional");
  servers.push(local);
  // The bare server answers what the local server answers for a cache hit (the second request).
  await fetch(`${local.base}${path}`).then((r) => r.arrayBuffer());
  const hit = await fetch(`${local.base}${path}`);
  if (hit.status !== 200 || hit.headers.get("x-cache") !== "HIT")
    throw new Error(`local: the answer to record is ${hit.status} ${hit.headers.get("x-cache")}`);
  servers.unshift(await startBare(hit));
  servers.push(await startSiphon("metered", hasFlag("aa") ? "off" : "required"));
  servers.push(await startSiphon("off", "off"));
  for (const s of servers) {
    const warm = await fetch(`${s.base}${path}`, { headers: s.headers });
    if (warm.status !== 200) throw new Error(`${s.name}: warm-up answered ${warm.status}`);
    await run(`${s.base}${path}`, s.headers); // JIT and cache warm-up, not counted
  }
  for (let round = 0; round < rounds; round++) {
    const rate = new Map<Name, number>();
    const perCpu = new Map<Name, number>();
    // The order rotates: a server is first, second, third and last equally often.
    for (let i = 0; i < servers.length; i++) {
      const s = servers[(round + i) % servers.length] as Server;
      const before = cpuTicks(s.pid);
      const result = await run(`${s.base}${path}`, s.headers);
      const ticks = cpuTicks(s.pid) - before;
      const cpu = ticks > 0 ? (result.rps * seconds * TICKS_PER_SECOND) / ticks : 0;
      if (hasFlag("verbose"))
        console.error(`round ${round + 1}: ${s.name}: ${Math.round(result.rps)} req/s, ${ticks} ticks`);
      rate.set(s.name, result.rps);
      perCpu.set(s.name, cpu);
      const t = totals.get(s.name) ?? { rps: [], perCpu: [], p99: [], non2xx: 0 };
      t.rps.push(result.rps);
      t.perCpu.push(cpu);
      t.p99.push(result.p99);
      t.non2xx += result.non2xx;
      totals.set(s.name, t);
    }
    const bare = rate.get("bare") as number;
    const bareCpu = perCpu.get("bare") as number;
    ratios.local.push((rate.get("local") as number) / bare);
    ratios.metered.push((rate.get("metered") as number) / bare);
    ratios.localCpu.push((perCpu.get("local") as number) / bareCpu);
    ratios.meteredCpu.push((perCpu.get("metered") as number) / bareCpu);
  }
  const pair = servers.filter((s) => s.name === "metered" || s.name === "off") as [Server, Server];
  for (let round = 0; round < sharedRounds; round++) {
    const before = pair.map((s) => cpuTicks(s.pid));
    const [on, off] = (await Promise.all(pair.map((s) => run(`${s.base}${path}`, s.headers)))) as [
      Load,
      Load,
    ];
    const [cpuOn, cpuOff] = pair.map((s, i) => cpuTicks(s.pid) - (before[i] as number)) as [number, number];
    if (on.non2xx || off.non2xx) throw new Error("error answers in a shared round: the figure would flatter");
    if (hasFlag("verbose"))
      console.error(
        `shared round ${round + 1}: metered ${Math.round(on.rps)} req/s on ${cpuOn} ticks, ` +
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
  const t = totals.get(s.name) as Totals;
  return {
    server: s.label,
    rps: Math.round(median(t.rps)),
    perCpuSecond: Math.round(median(t.perCpu)),
    p99: Math.round(median(t.p99) * 10) / 10,
    non2xx: t.non2xx,
  };
});
const percent = (x: number) => Math.round(x * 1000) / 10;
const spread = (values: number[]) => ({
  median: percent(median(values)),
  low: percent(Math.min(...values)),
  high: percent(Math.max(...values)),
});
const ofBare = {
  local: spread(ratios.local),
  metered: spread(ratios.metered),
  localPerCpu: spread(ratios.localCpu),
  meteredPerCpu: spread(ratios.meteredCpu),
};
const shared = sharedRounds
  ? {
      rounds: sharedRounds,
      cost: spread(sharedCosts),
      rateCostPercent: percent(median(sharedRateCosts)),
    }
  : null;
if (hasFlag("json"))
  console.log(JSON.stringify({ seconds, connections, aa: hasFlag("aa"), rounds, rows, ofBare, shared }));
else {
  const range = (s: { median: number; low: number; high: number }) =>
    `**${s.median}%** (rounds ${s.low}% to ${s.high}%)`;
  console.log(`cached GET /v1/fetch, ${connections} connections, ${seconds} s per round\n`);
  console.log(`alone (each server with the core to itself, ${rounds} rounds, order rotating; medians):\n`);
  console.log("| server | requests/s | requests per CPU second | p99 latency (ms) | non-2xx (all rounds) |");
  console.log("|---|---|---|---|---|");
  for (const r of rows)
    console.log(`| ${r.server} | ${r.rps} | ${r.perCpuSecond} | ${r.p99} | ${r.non2xx} |`);
  console.log(
    `\nof the bare server's rate, medians of each round's ratio (targets: local >= 50%, metered >= 40%):`,
  );
  console.log(`- local account: ${range(ofBare.local)}; per CPU second ${range(ofBare.localPerCpu)}`);
  console.log(`- metered key: ${range(ofBare.metered)}; per CPU second ${range(ofBare.meteredPerCpu)}`);
  if (shared)
    console.log(
      `\nshared (metered and off loaded at once on one core, ${shared.rounds} rounds): ` +
        `auth + metering cost ${shared.cost.median}% of throughput per CPU second ` +
        `(median; rounds ${shared.cost.low}% to ${shared.cost.high}%; ` +
        `${shared.rateCostPercent}% from the rates alone)`,
    );
}
