/**
 * Samples the summed RSS of a process tree from a process of its own, so that reading /proc for
 * every process (tens of ms each time on a busy machine) never blocks the event loop of the
 * process being measured:
 *
 *   bun scripts/bench/rss-sampler.ts <root pid> [interval ms]
 *
 * Prints the peak in MiB on stdout when its stdin closes (startRssSampler ends it that way).
 * Its own process is left out of the sum.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Summed VmRSS in MiB of `root` and all its descendants (Linux /proc), leaving out `skip`. */
export function treeRssMiB(root: number, skip = -1): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the ppid is the 2nd field after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone while we looked.
    }
  }
  let kib = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    if (pid === skip) continue;
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Gone while we looked.
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return Math.round(kib / 1024);
}

/** Starts the sampler on `root`'s tree; `stop` resolves to the peak MiB seen. */
export function startRssSampler(root: number, intervalMs = 250): { stop(): Promise<number> } {
  const child = Bun.spawn([process.execPath, import.meta.path, String(root), String(intervalMs)], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  return {
    async stop() {
      child.stdin.end();
      const out = await new Response(child.stdout).text();
      await child.exited;
      return Number(out.trim()) || 0;
    },
  };
}

if (import.meta.main) {
  const root = Number(process.argv[2]);
  const intervalMs = Number(process.argv[3] ?? 250);
  let peak = treeRssMiB(root, process.pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssMiB(root, process.pid));
  }, intervalMs);
  // stdin closes when the measured process asks for the peak (or exits).
  for await (const _ of Bun.stdin.stream()) {
    // Nothing is sent; the loop ends with the stream.
  }
  clearInterval(timer);
  peak = Math.max(peak, treeRssMiB(root, process.pid));
  console.log(peak);
}
