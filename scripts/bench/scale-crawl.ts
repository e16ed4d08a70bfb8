/**
 * One measured crawl of scripts/bench/scale.ts: the generated site in its own process, crawls
 * started through an API process and followed to their end, and what they cost each process.
 */

import { redisOf } from "../../src/store/redis-store.ts";
import type { Store } from "../../src/store/types.ts";
import type { ServeProcess } from "../../test/hosted/cluster.ts";
import {
  childCpuByKind,
  growth,
  type pgProbe,
  redisCalls,
  type redisMonitor,
  threadCpuSeconds,
  treeCpuSeconds,
  treeSwitches,
} from "./scale-probe.ts";
import { round1 } from "./stats.ts";

export type Site = { url: string; pid: number };

/** What a crawl run reads besides time: CPU per process tree, and with `trips` the round trips. */
export interface Probe {
  /** Process trees whose CPU is counted, by name ("worker..." ones are summed as "workers"). */
  roots: Record<string, number>;
  /** `crawls` crawls at once, of `total / crawls` pages each. */
  crawls: number;
  redis?: Store;
  pg?: ReturnType<typeof pgProbe>;
  monitor?: Awaited<ReturnType<typeof redisMonitor>>;
}

/**
 * Runs `probe.crawls` crawls at once through `api` and follows them to their end: pages per second
 * over all of them, the CPU each process tree spent per page, and (with a monitor and a pg probe)
 * the Redis commands and PostgreSQL statements per page.
 */
export async function crawlRun(api: ServeProcess, key: string, site: string, total: number, probe: Probe) {
  const { crawls } = probe;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const each = Math.floor(total / crawls);
  const client = probe.monitor && probe.redis ? redisOf(probe.redis)?.client : undefined;
  const redisBefore = client ? await redisCalls(client) : undefined;
  await probe.pg?.takeStatements();
  probe.monitor?.take();
  const workerPids = Object.entries(probe.roots)
    .filter(([k]) => k.startsWith("worker") || k === "siphon")
    .map(([, v]) => v);
  const threadsBefore = threadCpuSeconds(workerPids);
  const pgBefore = probe.roots.postgres ? childCpuByKind(probe.roots.postgres) : {};
  const cpuBefore = treeCpuSeconds(probe.roots);
  const switchesBefore = treeSwitches(probe.roots);
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: crawls }, async () => {
      const response = await fetch(`${api.url}/v1/crawl`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          url: site,
          limit: each,
          maxDepth: 10,
          maxConcurrency: 5,
          ignoreSitemap: true,
        }),
      });
      if (response.status !== 202)
        throw new Error(`crawl start: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { id: string }).id;
    }),
  );
  let done = 0;
  for (const id of ids)
    for (;;) {
      const state = (await (await fetch(`${api.url}/v1/crawl/${id}?limit=1`, { headers })).json()) as {
        status: string;
        completed: number;
      };
      if (["completed", "failed", "cancelled"].includes(state.status)) {
        if (state.status !== "completed") throw new Error(`crawl ${id} ended ${state.status}`);
        done += state.completed;
        break;
      }
      await Bun.sleep(100);
    }
  const secondsTaken = (performance.now() - started) / 1000;
  const cpuAfter = treeCpuSeconds(probe.roots);
  const switchesAfter = treeSwitches(probe.roots);
  const threadsAfter = threadCpuSeconds(workerPids);
  const pgAfter = probe.roots.postgres ? childCpuByKind(probe.roots.postgres) : {};
  const n = Math.max(1, done);
  const perPage = (value: number) => round1((value * 1000) / n);
  const cpu: Record<string, number> = {};
  for (const [name, after] of Object.entries(cpuAfter)) {
    // Workers are summed: what matters is what a page costs them together.
    const group = name.startsWith("worker") ? "workers" : name;
    cpu[group] = (cpu[group] ?? 0) + after - (cpuBefore[name] ?? 0);
  }
  const all = Object.values(cpu).reduce((a, b) => a + b, 0);
  const deployed = all - (cpu.site ?? 0) - (cpu.driver ?? 0);
  const switches: Record<string, string> = {};
  for (const [name, [v, i]] of Object.entries(switchesAfter)) {
    const group = name.startsWith("worker") ? "workers" : name;
    const [v0, i0] = switchesBefore[name] ?? [0, 0];
    const prev = switches[group]?.split("/").map(Number) ?? [0, 0];
    switches[group] = `${round1((prev[0] ?? 0) + (v - v0) / n)}/${round1((prev[1] ?? 0) + (i - i0) / n)}`;
  }
  const result: Record<string, unknown> = {
    pages: done,
    seconds: round1(secondsTaken),
    pagesPerSecond: round1(done / secondsTaken),
    cpuMsPerPage: perPage(all),
    deployedCpuMsPerPage: perPage(deployed),
    coresBusy: round1(all / secondsTaken),
    cpuMsPerPageBy: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, perPage(v)])),
    switchesPerPage: switches,
    postgresMsPerPage: Object.fromEntries(
      Object.entries(pgAfter)
        .map(([k, v]) => [k, perPage(v - (pgBefore[k] ?? 0))] as const)
        .filter(([, v]) => v > 0),
    ),
    workerThreadsMsPerPage: Object.fromEntries(
      Object.entries(threadsAfter)
        .map(([k, v]) => [k, perPage(v - (threadsBefore[k] ?? 0))] as const)
        .filter(([, v]) => v > 0),
    ),
  };
  if (redisBefore && client) {
    const redis = growth(redisBefore, await redisCalls(client));
    result.redisCommandsPerPage = round1(redis.reduce((a, [, c]) => a + c, 0) / n);
    result.redisTop = redis.slice(0, 12).map(([cmd, c]) => `${cmd} ${round1(c / n)}`);
  }
  if (probe.monitor) {
    await Bun.sleep(200);
    const sent = growth(new Map(), probe.monitor.take());
    result.redisRoundTripsPerPage = round1(sent.reduce((a, [, c]) => a + c, 0) / n);
    result.redisSent = sent.slice(0, 40).map(([cmd, c]) => `${cmd} ${round1(c / n)}`);
  }
  if (probe.pg) {
    const statements = growth(new Map(), await probe.pg.takeStatements());
    result.pgStatementsPerPage = round1(statements.reduce((a, [, c]) => a + c, 0) / n);
    result.pgTop = statements.slice(0, 40).map(([q, c]) => `${round1(c / n)} ${q.slice(0, 400)}`);
  }
  return result;
}
