/**
 * Compiles cli/main.ts into one self-contained binary, dist/siphon, that runs
 * every subcommand (serve included) with no node_modules beside it. Drizzle
 * migrations are already embedded (src/store/sqlite-migrations.gen.ts); the
 * extraction worker's and the SQLite checkpointer's thread entries are
 * compiled in beside the CLI's.
 */
import { mkdirSync } from "node:fs";

const root = new URL("..", import.meta.url).pathname;
mkdirSync(`${root}dist`, { recursive: true });
const started = performance.now();
const proc = Bun.spawnSync(
  [
    "bun",
    "build",
    "--compile",
    "--minify-syntax",
    "--minify-whitespace",
    "--sourcemap=none",
    "--bytecode",
    // Each lazily imported module (a subcommand, the server, puppeteer, the LLM SDKs) becomes a
    // chunk of its own that is loaded when imported: one bundle would be loaded whole by every
    // run, `siphon --version` included (tens of ms of start-up).
    "--splitting",
    "--format=esm",
    "cli/main.ts",
    // A worker thread's entry is its own entrypoint of the binary (src/extract/pool.ts and
    // src/store/sqlite-checkpointer.ts find them).
    "src/extract/worker.ts",
    "src/store/sqlite-checkpoint-thread.ts",
    "--outfile",
    "dist/siphon",
  ],
  { cwd: root, stdout: "inherit", stderr: "inherit" },
);
if (proc.exitCode !== 0) {
  console.error("build failed");
  process.exit(proc.exitCode ?? 1);
}
console.error(`built dist/siphon in ${Math.round(performance.now() - started)} ms`);
