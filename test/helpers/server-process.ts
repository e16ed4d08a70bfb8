/** What the helpers that start throwaway servers (redis.ts, postgres.ts) share. */

/** Whether a process with `pid` is still running. */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A port nothing listens on right now. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Sends `signal` to `pid` when it runs, waits up to `ms` for it to be gone, then kills it. */
export async function stopProcess(pid: number | null, signal: NodeJS.Signals, ms: number): Promise<void> {
  if (!pid || !alive(pid)) return;
  process.kill(pid, signal);
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await Bun.sleep(10);
  if (alive(pid)) process.kill(pid, "SIGKILL");
}

/**
 * Servers started and not yet stopped, each by a function that finds its pid: stopped with
 * `signal` when the test process exits, however it exits.
 */
export function stopAtExit(signal: NodeJS.Signals) {
  const running = new Map<string, () => number | null>();
  process.on("exit", () => {
    for (const pidOf of running.values()) {
      const pid = pidOf();
      if (pid && alive(pid)) process.kill(pid, signal);
    }
  });
  return {
    add: (key: string, pidOf: () => number | null) => running.set(key, pidOf),
    delete: (key: string) => running.delete(key),
  };
}
