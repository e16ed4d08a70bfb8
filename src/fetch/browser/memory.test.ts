import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { type RendererWatch, watchRenderers } from "./memory.ts";

const CEILING_MIB = 64;
/** How long the stand-in renderer shows a command line without its type (several ticks of the watch). */
const UNNAMED_MS = 1_500;

let parent: ReturnType<typeof Bun.spawn> | undefined;
let watch: RendererWatch | undefined;

function childrenOf(pid: number): number[] {
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return list ? list.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

afterEach(() => {
  watch?.close();
  if (parent) {
    for (const pid of childrenOf(parent.pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Stopped by the watch already.
      }
    }
    parent.kill("SIGKILL");
  }
});

describe.skipIf(!existsSync("/proc"))("watchRenderers", () => {
  test("a renderer first seen before it named its type is still measured, and stopped past the ceiling", async () => {
    // The parent stands for the browser. Its child shows a command line with no --type for a
    // while, as a zygote's fork (the zygote's line) or a child not yet exec'd (the browser's)
    // does, then becomes a "renderer" holding 200 MB. Its type comes through the environment
    // so that the first command line does not hold it.
    const grow = "const b = Buffer.alloc(200 * 1024 * 1024, 1); setTimeout(() => b, 30000);";
    parent = Bun.spawn(
      ["bash", "-c", `bash -c 'sleep ${UNNAMED_MS / 1000}; exec -a "$TYPE" "$BUN" -e "$GROW"' & wait $!`],
      {
        env: { ...process.env, TYPE: "stand-in --type=renderer", BUN: process.execPath, GROW: grow },
        stderr: "ignore",
      },
    );
    watch = watchRenderers(parent.pid, CEILING_MIB);
    const started = Date.now();
    while (watch.lastStop === 0 && Date.now() - started < UNNAMED_MS + 10_000) await Bun.sleep(50);
    expect(watch.lastStop).toBeGreaterThan(started + UNNAMED_MS);
    // The parent's `wait` reports its child's end: 128 + SIGKILL.
    expect(await parent.exited).toBe(137);
  }, 20_000);
});
