import { readdirSync, readFileSync } from "node:fs";

/**
 * The Chromium renderers this test process started (through its apps' browser pools), found in
 * /proc as the browser's memory watch finds them (src/fetch/browser/memory.ts), for tests that
 * kill one as the system's OOM killer would. Linux only.
 */

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** Every descendant of `pid` (children of each of its threads, recursively). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const parent = stack.pop()!;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${parent}/task`);
    } catch {
      // Ended while we looked.
    }
    for (const task of tasks) {
      for (const child of read(`/proc/${parent}/task/${task}/children`).trim().split(/\s+/)) {
        if (!child) continue;
        found.push(Number(child));
        stack.push(Number(child));
      }
    }
  }
  return found;
}

/** Pids of this process's renderers whose command line holds `marker` (e.g. a launch flag of one app). */
export function renderersWith(marker: string): number[] {
  return descendants(process.pid).filter((pid) => {
    const cmdline = read(`/proc/${pid}/cmdline`);
    return cmdline.includes("--type=renderer") && cmdline.includes(marker);
  });
}

/**
 * SIGKILLs this process's renderers whose command line holds `marker` and waits until they are
 * gone (reaped by their zygote), at most `waitMs`.
 * @returns how many were killed
 */
export async function killRenderers(marker: string, waitMs = 5_000): Promise<number> {
  const pids = renderersWith(marker);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  const until = Date.now() + waitMs;
  while (Date.now() < until && renderersWith(marker).some((pid) => pids.includes(pid))) await Bun.sleep(20);
  return pids.length;
}
