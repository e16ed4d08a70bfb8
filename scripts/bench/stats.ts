import { readFileSync } from "node:fs";

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** `n` to one decimal. */
export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

const TICKS_PER_SECOND = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/**
 * CPU seconds the whole machine has spent so far outside idle (Linux /proc/stat: user, nice,
 * system, irq, softirq, steal). Counting the tool's own process tree instead loses the time of
 * renderers that exit before the end (Crawlee's page per request), so this counts everything:
 * the tool, its browser or servers, the fixture site's server and whatever else runs (little, when the
 * machine is quiet).
 */
export function machineCpuSeconds(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n", 1)[0]!
    .trim()
    .split(/\s+/)
    .map(Number);
  return (
    ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) /
    TICKS_PER_SECOND
  );
}
