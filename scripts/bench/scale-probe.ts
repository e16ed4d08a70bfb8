/**
 * What scripts/bench/scale.ts measures beside time: the CPU of each process it started (read
 * from /proc, so another program running on the machine meanwhile is not counted), and with
 * `--trips` the Redis commands and PostgreSQL statements a crawled page costs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { SQL } from "bun";
import type { Redis } from "ioredis";

const TICKS_PER_SECOND = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

interface ProcStat {
  ppid: number;
  /** This process's own CPU, and that of the children it reaped, in ticks. */
  own: number;
  reaped: number;
}

function procStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const n = (i: number) => Number(fields[i] ?? 0);
    stats.set(pid, { ppid: n(1), own: n(11) + n(12), reaped: n(13) + n(14) });
  }
  return stats;
}

/**
 * CPU seconds spent so far by the process tree under each of `roots` (by name): every live
 * process of it, and the children they reaped. A tree inside another one is counted in its own
 * entry only.
 */
export function treeCpuSeconds(roots: Record<string, number>): Record<string, number> {
  const stats = procStats();
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const rootPids = new Set(Object.values(roots));
  const out: Record<string, number> = {};
  for (const [name, root] of Object.entries(roots)) {
    let ticks = 0;
    const stack = [root];
    while (stack.length) {
      const pid = stack.pop() as number;
      const stat = stats.get(pid);
      if (!stat) continue;
      ticks += stat.own + stat.reaped;
      for (const child of children.get(pid) ?? []) if (!rootPids.has(child)) stack.push(child);
    }
    out[name] = ticks / TICKS_PER_SECOND;
  }
  return out;
}

/** The thread ids of a live process (none once it has gone). */
function tasksOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** Context switches (voluntary, involuntary) so far of every live thread in the trees under `roots`. */
export function treeSwitches(roots: Record<string, number>): Record<string, [number, number]> {
  const stats = procStats();
  const children = new Map<number, number[]>();
  for (const [pid, stat] of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  const rootPids = new Set(Object.values(roots));
  const out: Record<string, [number, number]> = {};
  for (const [name, root] of Object.entries(roots)) {
    const sum: [number, number] = [0, 0];
    const stack = [root];
    while (stack.length) {
      const pid = stack.pop() as number;
      if (!stats.has(pid)) continue;
      for (const task of tasksOf(pid)) {
        try {
          const text = readFileSync(`/proc/${pid}/task/${task}/status`, "utf8");
          sum[0] += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(text)?.[1] ?? 0);
          sum[1] += Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(text)?.[1] ?? 0);
        } catch {}
      }
      for (const child of children.get(pid) ?? []) if (!rootPids.has(child)) stack.push(child);
    }
    out[name] = sum;
  }
  return out;
}

/** CPU seconds so far of the live threads of `pids`, summed by thread name. */
export function threadCpuSeconds(pids: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pid of pids) {
    for (const task of tasksOf(pid)) {
      try {
        const text = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
        const name = text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")).replace(/\d+/g, "#");
        const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
        out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      } catch {}
    }
  }
  return out;
}

/** CPU seconds so far of the children of `pid` (live ones), by what their command line says they are. */
export function childCpuByKind(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [child, stat] of procStats()) {
    if (stat.ppid !== pid) continue;
    let kind = "?";
    try {
      const cmd = readFileSync(`/proc/${child}/cmdline`, "utf8").replace(/\0/g, " ");
      kind = /postgres: (?:\S+ \S+ \S+ )?(\w[\w ]*?)(?: \d|\(|$)/.exec(cmd)?.[1]?.trim() ?? cmd.slice(0, 30);
      if (/postgres \S+ \d+\.\d+\.\d+\.\d+/.test(cmd) || /\d+\.\d+\.\d+\.\d+\(/.test(cmd)) kind = "backend";
    } catch {}
    out[kind] = (out[kind] ?? 0) + (stat.own + stat.reaped) / TICKS_PER_SECOND;
  }
  return out;
}

/** The pid of the Redis server `client` is connected to. */
export async function redisPid(client: Redis): Promise<number> {
  return Number(/process_id:(\d+)/.exec(await client.info("server"))?.[1]);
}

/** Calls per command since the Redis server started (or its stats were reset). */
export async function redisCalls(client: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const match of (await client.info("commandstats")).matchAll(/cmdstat_([^:]+):calls=(\d+)/g))
    calls.set(match[1] as string, Number(match[2]));
  return calls;
}

/**
 * Counts the commands clients send Redis (round trips: a script's own calls are not counted), by
 * connection name and command, from MONITOR; `take` answers the counts since the last call.
 */
export async function redisMonitor(client: Redis) {
  const monitor = await client.duplicate().monitor();
  const names = new Map<string, string>();
  const nameOf = async (source: string) => {
    if (!names.has(source)) {
      names.set(source, "?");
      for (const line of ((await client.client("LIST")) as string).split("\n")) {
        const addr = /addr=(\S+)/.exec(line)?.[1];
        if (addr) names.set(addr, /name=(\S*)/.exec(line)?.[1] || "unnamed");
      }
    }
    return names.get(source) ?? "?";
  };
  let calls = new Map<string, number>();
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    if (source === "lua") return;
    const command = String(args[0]).toLowerCase();
    void nameOf(source).then((name) => {
      const key = `${name} ${command}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
    });
  });
  return {
    take(): Map<string, number> {
      const taken = calls;
      calls = new Map();
      return taken;
    },
    close: () => monitor.disconnect(),
  };
}

/**
 * An admin connection to the PostgreSQL server at `url`: its postmaster's pid, and (once
 * `enableStatements` restarted it with pg_stat_statements) the statements run, by text.
 */
export function pgProbe(url: string) {
  let admin = new SQL(url, { max: 1 });
  return {
    async postmasterPid(): Promise<number> {
      const [row] = await admin`SELECT pg_backend_pid() AS pid`;
      return procStats().get(Number(row.pid))?.ppid ?? 0;
    },
    /** Loads pg_stat_statements: the server is restarted by `restart` in between. */
    async enableStatements(restart: () => Promise<void>): Promise<void> {
      await admin.unsafe("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
      await admin.close({ timeout: 0 });
      await restart();
      admin = new SQL(url, { max: 1 });
      await admin.unsafe("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    },
    /** Calls per statement text since the last call (the counters are reset). */
    async takeStatements(): Promise<Map<string, number>> {
      const rows = (await admin.unsafe(
        "SELECT query, calls, total_exec_time + total_plan_time AS ms FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'",
      )) as { query: string; calls: unknown; ms: unknown }[];
      await admin.unsafe("SELECT pg_stat_statements_reset()");
      const calls = new Map<string, number>();
      for (const row of rows) {
        const query = `[${Math.round((Number(row.ms) * 1000) / Math.max(1, Number(row.calls)))} us] ${row.query.replace(/\s+/g, " ").trim()}`;
        calls.set(query, (calls.get(query) ?? 0) + Number(row.calls));
      }
      return calls;
    },
    close: () => admin.close({ timeout: 0 }),
  };
}

/** `after - before` per key, the largest first, dropping keys that did not move. */
export function growth(before: Map<string, number>, after: Map<string, number>): [string, number][] {
  return [...after]
    .map(([key, n]) => [key, n - (before.get(key) ?? 0)] as [string, number])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
}
