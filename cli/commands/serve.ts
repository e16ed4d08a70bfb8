import { constants } from "node:os";
import { defineCommand } from "citty";
import type { authModeOf } from "../../server/guard.ts";
import type { Config } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { type JobRunner, within } from "../../src/jobs/runner.ts";
import { describeStore } from "../../src/store/describe.ts";
import type { WatchScheduler, WatchService } from "../../src/watch/index.ts";
import { type CliContext, openContext } from "../context.ts";
import { log, setQuiet } from "../output.ts";

function port(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new SiphonError("invalid_request", `--port must be an integer from 0 to 65535, got "${value}"`);
  }
  return n;
}

const ROLES = ["api", "worker", "all"] as const;
type Role = (typeof ROLES)[number];

function role(value: string): Role {
  if ((ROLES as readonly string[]).includes(value)) return value as Role;
  throw new SiphonError("invalid_request", `--role must be api, worker or all, got "${value}"`);
}

function concurrency(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new SiphonError(
      "invalid_request",
      `--concurrency must be an integer from 1 to 1000, got "${value}"`,
    );
  }
  return n;
}

/** What a serving process runs, in the order its shutdown stops them. */
interface Serving {
  app: { server: { stop(closeActiveConnections?: boolean): Promise<void> } | null };
  runner: JobRunner;
  scheduler: WatchScheduler | undefined;
  watches: WatchService;
  ctx: CliContext;
}

/** What the grace keeps back for closing the stores once the work is handed back, ms. */
const STORE_RESERVE_MS = 2_000;

/**
 * Shuts a serving process down within `graceMs`, each step bounded whatever the stores do: no
 * new connections; every open event stream ends with its shutdown event and every WebSocket
 * closes 1001; jobs stop here and are handed back (single process: they stay processing and
 * resume on the next start; hosted: their queue entries go back to the queue); requests under
 * way finish, or are cut when the time is up; then the watches and the stores close.
 */
async function shutdown(serving: Serving, graceMs: number): Promise<void> {
  const { app, runner, scheduler, watches, ctx } = serving;
  const until = Date.now() + graceMs;
  const reserve = Math.min(STORE_RESERVE_MS, Math.floor(graceMs / 4));
  const left = (keep = 0) => Math.max(0, until - keep - Date.now());
  const server = app.server;
  const closing = server?.stop(false) ?? Promise.resolve();
  const { endOpenConnections } = await import("../../server/shutdown.ts");
  const ended = endOpenConnections();
  if (ended) log.info(`ended ${ended} open stream(s)`);
  await Promise.all([
    runner.close({ graceMs: left(reserve) }),
    within(scheduler?.stop() ?? Promise.resolve(), left(reserve)),
    within(closing, left(reserve)).then((done) => {
      // Requests still under way when the grace is nearly spent are cut.
      if (!done) return server?.stop(true);
    }),
  ]);
  await within(watches.close(), left());
  await within(ctx.close(), left());
}

/**
 * Resolves once the process has shut down (`stop`) after SIGTERM or SIGINT. The grace is a
 * promise: past it the process exits (1) wherever the shutdown is; a second signal exits at once.
 */
function onSignals(graceMs: number, stop: (graceMs: number) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const received = (signal: NodeJS.Signals) => {
      if (stopping) {
        log.warn(`${signal} received again: exiting now`);
        process.exit(128 + (constants.signals[signal] ?? 0));
      }
      stopping = true;
      log.info(`${signal} received, shutting down (within ${graceMs} ms, SIPHON_SHUTDOWN_GRACE_MS)`);
      const late = setTimeout(() => {
        log.warn(`shutdown did not finish within ${graceMs} ms: exiting now`);
        process.exit(1);
      }, graceMs);
      void stop(graceMs)
        .catch((error) => log.error("shutdown failed:", error))
        .finally(() => {
          clearTimeout(late);
          resolve();
        });
    };
    process.on("SIGINT", received);
    process.on("SIGTERM", received);
  });
}

/**
 * What a person starting the server should know: the auth mode, SSRF protection, the store and
 * the job queue in use, and where the dashboard and the API reference are.
 */
function startupSummary(
  config: Config,
  auth: ReturnType<typeof authModeOf>,
  origin: string,
  queued: boolean,
  role: string,
): string[] {
  const authNote =
    auth === "optional"
      ? "optional: requests without a key are the local account's"
      : auth === "off"
        ? "off: no keys, no limits"
        : "required: every request needs an API key (siphon keys create)";
  const ssrf = config.disableSsrfProtection
    ? "OFF (DISABLE_SSRF_PROTECTION): the server fetches private and loopback addresses"
    : `on${config.ssrfAllow ? ` (allowed: ${config.ssrfAllow})` : ""}`;
  const store = describeStore(config);
  return [
    `auth ${authNote}`,
    `SSRF protection ${ssrf}`,
    `store ${store}; jobs ${queued ? `on the Redis queue (role ${role})` : "in this process"}`,
    `dashboard ${origin}/dashboard, API reference ${origin}/docs, health ${origin}/health`,
  ];
}

export default defineCommand({
  meta: {
    name: "serve",
    description:
      "Run the HTTP API (default 127.0.0.1:3000; PORT env or --port); with REDIS_URL, --role api|worker splits HTTP from jobs",
  },
  args: {
    port: {
      type: "string",
      alias: "p",
      description: "Port to listen on (0 picks a free one)",
      valueHint: "port",
    },
    host: { type: "string", description: "Address to bind (default 127.0.0.1)", valueHint: "addr" },
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
    role: {
      type: "string",
      description:
        "api (HTTP only), worker (jobs only) or all (default; SIPHON_ROLE); api and worker need REDIS_URL",
      valueHint: "role",
    },
    concurrency: {
      type: "string",
      description:
        "With REDIS_URL: units of work (pages, agent runs) this process runs at once (SIPHON_WORKER_CONCURRENCY, default 8)",
      valueHint: "n",
    },
    "reuse-port": {
      type: "boolean",
      description:
        "Share the port with other siphon processes of the same deployment that ask for it too (SIPHON_REUSE_PORT); without it a taken port refuses to start",
    },
  },
  async run({ args }) {
    setQuiet(args.quiet === true);
    const ctx = await openContext({
      port: port(args.port),
      host: args.host,
      role: args.role === undefined ? undefined : role(args.role),
      workerConcurrency: concurrency(args.concurrency),
      ...(args["reuse-port"] === true ? { reusePort: true } : {}),
    });
    // Without Redis, jobs run in this process; with it, on the queue whatever the role.
    const queued = ctx.config.redisUrl.trim() !== "";
    const mode = ROLES.find((r) => r === ctx.config.role);
    if (!mode || (!queued && mode !== "all")) {
      await ctx.close();
      if (!mode) role(ctx.config.role);
      throw new SiphonError("invalid_request", `--role ${mode} needs REDIS_URL`, {
        hint: "Set REDIS_URL (and DATABASE_URL) on every process, or run one process with --role all.",
      });
    }
    const { createApp } = await import("../../server/app.ts");
    const { listen } = await import("../../server/listen.ts");
    const { authModeOf } = await import("../../server/guard.ts");
    const warn = (message: string) => log.warn(message);
    const runner = queued
      ? await import("../../src/jobs/queue.ts").then((q) =>
          q.startQueuedRunner(ctx.config, ctx.store, ctx.engines, { role: mode, log: warn }),
        )
      : await import("../../src/jobs/index.ts").then((j) =>
          j.startJobRunner(ctx.config, ctx.store, ctx.engines, { log: warn }),
        );
    const { createWatchScheduler, createWatchService } = await import("../../src/watch/index.ts");
    const watches = createWatchService({ ...ctx, log: (message) => log.warn(message) });
    // Watch checks are work: an API-only process leaves them to the workers.
    const scheduler =
      ctx.config.watchScheduler && mode !== "api"
        ? createWatchScheduler(watches, { store: ctx.store, concurrency: ctx.config.watchConcurrency })
        : undefined;
    const app = createApp({
      ...ctx,
      runner,
      watches,
      log: (line) => log.warn(line),
      onInternalError: (error, requestId) => log.error(`request ${requestId} failed:`, error),
    });
    // A worker serves no HTTP; its app is built all the same, as it registers how each API surface keeps
    // the pages of the jobs it starts, and the worker runs those pages.
    if (mode !== "worker") {
      let port: number;
      try {
        port = listen(app, {
          port: ctx.config.port,
          hostname: ctx.config.host,
          reusePort: ctx.config.reusePort,
        });
      } catch (error) {
        // Nothing ran yet: no job of the store was picked up by this process.
        await runner.close();
        await watches.close();
        await ctx.close();
        throw error;
      }
      // Tests and scripts read this line to learn the port when --port 0 is used.
      log.info(`siphon listening on http://${ctx.config.host}:${port}${queued ? ` (role ${mode})` : ""}`);
      const auth = authModeOf(ctx.config);
      for (const line of startupSummary(ctx.config, auth, `http://${ctx.config.host}:${port}`, queued, mode))
        log.info(line);
    } else log.info(`siphon worker ready (concurrency ${ctx.config.workerConcurrency})`);
    // From here on a signal shuts down in order, within the grace (a second one exits at once).
    const stopped = onSignals(ctx.config.shutdownGraceMs, (grace) =>
      shutdown({ app, runner, scheduler, watches, ctx }, grace),
    );
    // Jobs a previous process accepted and did not finish carry on now.
    const resumed = await runner.resume();
    if (resumed) log.info(`resumed ${resumed} unfinished job(s)`);
    // Due watch checks run from now on, overdue ones first (once each, however long the server was down).
    scheduler?.start();
    await stopped;
    return 0;
  },
});
