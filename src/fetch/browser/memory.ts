import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * The memory ceiling of each renderer of a launched browser, held two ways, because neither
 * alone holds it on both of our browsers (chromium-headless-shell and full Chromium 156 were
 * measured the same):
 *
 * - `--js-flags=--max-old-space-size` caps V8's heap: a script that piles up arrays or strings
 *   crashes its renderer (V8 out of memory) at the cap. But the DOM and the text the HTML
 *   parser keeps live outside V8's old space: a page appending text nodes grew its renderer
 *   past 1.3 GB under a 256 MB V8 cap.
 * - So a watch reads each renderer's resident memory (RssAnon + RssShmem, the memory it holds
 *   of its own, not the shared code) from /proc every WATCH_INTERVAL_MS and stops one that
 *   passes the ceiling. CDP has no per-page figure that covers the DOM (Performance.getMetrics
 *   and the Memory domain count V8's heap and nodes, not bytes), and no way to tell which
 *   process holds a page; the page whose renderer is stopped sees a crash, which the engine
 *   reports with this watch's `lastStop`. Every incognito context has renderers of its own, so
 *   only the request that grew one loses it.
 *
 * A connected browser (SIPHON_BROWSER_WS) is neither ours to flag nor to read: its service's
 * own limits apply.
 */

/** How often renderers are measured: a page growing its DOM at ~300 MB/s (measured) passes the ceiling by ~75 MB at most. */
const WATCH_INTERVAL_MS = 250;
/**
 * Ticks between two looks at the browser process's own children (zygotes, GPU, utilities,
 * started once): its 30-odd threads each have a children file, most of a tick's ~1.3 ms.
 * Renderers are the zygotes' children, which every tick reads.
 */
const TOP_REFRESH_TICKS = 16;

/** The flag that caps V8's heap in every renderer at the ceiling (the rest of a renderer's memory is the watch's). */
export function rendererMemoryArgs(ceilingMiB: number): string[] {
  return ceilingMiB > 0 ? [`--js-flags=--max-old-space-size=${ceilingMiB}`] : [];
}

/** The watch over one browser's renderers. */
export interface RendererWatch {
  readonly ceilingMiB: number;
  /** When the watch last stopped a renderer for passing the ceiling (epoch ms); 0 if never. */
  readonly lastStop: number;
  /** Stops watching; idempotent. */
  close(): void;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Direct children of `pid` (every thread's, as Chromium's zygote forks from its threads). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    const list = read(`/proc/${pid}/task/${task}/children`)?.trim();
    if (list) for (const child of list.split(/\s+/)) children.push(Number(child));
  }
  return children;
}

/** A Chromium process's --type (renderer, zygote, gpu-process, utility...), from its command line. */
function processType(cmdline: string): string | undefined {
  return /(?:^|[\s\0])--type=([\w-]+)/.exec(cmdline)?.[1];
}

/** Memory a process holds of its own, in MiB (RssAnon + RssShmem); undefined once it is gone. */
export function privateMiB(pid: number): number | undefined {
  const status = read(`/proc/${pid}/status`);
  if (!status) return undefined;
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return (kib("RssAnon") + kib("RssShmem")) / 1024;
}

/**
 * Measures the renderers under `browserPid` every WATCH_INTERVAL_MS and kills (SIGKILL) one
 * holding more than `ceilingMiB`. Needs Linux /proc; elsewhere, or with a ceiling of 0, it
 * watches nothing and only the V8 flag holds. The timer never keeps the process alive.
 */
export function watchRenderers(browserPid: number, ceilingMiB: number): RendererWatch {
  let lastStop = 0;
  // Read on every tick, never remembered (a handful of short files): a process forked from a
  // zygote shows the zygote's command line until it names its own type, and pids come back
  // (pid_max is often 32768), so a remembered answer could keep a renderer from ever being
  // measured.
  const isRenderer = (pid: number) => processType(read(`/proc/${pid}/cmdline`) ?? "") === "renderer";
  let top: number[] = [];
  let ticks = 0;
  const tick = () => {
    if (ticks++ % TOP_REFRESH_TICKS === 0) top = childrenOf(browserPid);
    const stack = [...top];
    while (stack.length) {
      const pid = stack.pop()!;
      stack.push(...childrenOf(pid));
      if (!isRenderer(pid)) continue;
      const mib = privateMiB(pid) ?? 0;
      if (mib <= ceilingMiB) continue;
      try {
        process.kill(pid, "SIGKILL");
        lastStop = Date.now();
      } catch {
        // Gone already.
      }
    }
  };
  const timer = ceilingMiB > 0 && existsSync("/proc") ? setInterval(tick, WATCH_INTERVAL_MS) : undefined;
  timer?.unref?.();
  return {
    ceilingMiB,
    get lastStop() {
      return lastStop;
    },
    close() {
      clearInterval(timer);
    },
  };
}
