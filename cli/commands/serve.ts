import { defineCommand } from "citty";
import { SiphonError } from "../../src/errors.ts";
import { openContext } from "../context.ts";
import { log, setQuiet } from "../output.ts";

function port(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new SiphonError("invalid_request", `--port must be an integer from 0 to 65535, got "${value}"`);
  }
  return n;
}

export default defineCommand({
  meta: { name: "serve", description: "Run the HTTP API (default 127.0.0.1:3000; PORT env or --port)" },
  args: {
    port: {
      type: "string",
      alias: "p",
      description: "Port to listen on (0 picks a free one)",
      valueHint: "port",
    },
    host: { type: "string", description: "Address to bind (default 127.0.0.1)", valueHint: "addr" },
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    const ctx = await openContext({ port: port(args.port), host: args.host });
    const { createApp } = await import("../../server/app.ts");
    const { startJobRunner } = await import("../../src/jobs/index.ts");
    const runner = startJobRunner(ctx.config, ctx.store, ctx.engines, {
      log: (message) => log.warn(message),
    });
    const { createWatchScheduler, createWatchService } = await import("../../src/watch/index.ts");
    const watches = createWatchService({ ...ctx, log: (message) => log.warn(message) });
    const scheduler = ctx.config.watchScheduler
      ? createWatchScheduler(watches, { store: ctx.store, concurrency: ctx.config.watchConcurrency })
      : undefined;
    const app = createApp({
      ...ctx,
      runner,
      watches,
      log: (line) => log.warn(line),
      onInternalError: (error, requestId) => log.error(`request ${requestId} failed:`, error),
    });
    app.listen({ port: ctx.config.port, hostname: ctx.config.host });
    const server = app.server;
    if (!server) throw new SiphonError("internal_error", "The server did not start");
    // Tests and scripts read this line to learn the port when --port 0 is used.
    log.info(`siphon listening on http://${ctx.config.host}:${server.port}`);
    // Jobs a previous process accepted and did not finish carry on now.
    const resumed = await runner.resume();
    if (resumed) log.info(`resumed ${resumed} unfinished job(s)`);
    // Due watch checks run from now on, overdue ones first (once each, however long the server was down).
    scheduler?.start();

    await new Promise<void>((resolve) => {
      const stop = async (signal: string) => {
        log.info(`${signal} received, shutting down`);
        await app.stop();
        await runner.close();
        await scheduler?.stop();
        await watches.close();
        await ctx.close();
        resolve();
      };
      process.once("SIGINT", () => void stop("SIGINT"));
      process.once("SIGTERM", () => void stop("SIGTERM"));
    });
    return 0;
  },
});
