#!/usr/bin/env bun
/**
 * The one entry of the siphon binary. `siphon --version` is answered before the CLI is loaded,
 * so it costs little more than the runtime's own start; everything else runs through
 * cli/run.ts, which loads only the command asked for.
 */
import pkg from "../package.json";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  // console.log writes without setting up process.stdout's stream (several ms of start-up).
  console.log(pkg.version);
  process.exit(0);
}
const { run } = await import("./run.ts");
// Exit explicitly: keep-alive sockets must not hold a finished CLI run open.
process.exit(await run(argv));
