import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { loadPlans } from "../auth/plans.ts";
import { loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { createEngines } from "../pipeline/engines.ts";
import { openSqliteStore } from "../store/sqlite.ts";
import { SQLITE_MIGRATIONS } from "../store/sqlite-migrations.gen.ts";
import type { JobRecord, JobStatus, Store } from "../store/types.ts";
import type { JobContext, JobEnd, JobEvent, JobKind } from "./kinds/types.ts";
import { createJobRunner, type JobRunner } from "./runner.ts";
import type { WebhookSender } from "./webhooks.ts";

const homes: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const T0 = Date.UTC(2026, 10, 18, 12);
const DAY = 86_400_000;

/** A kind whose runs the test drives: each run waits until the test ends it. */
function scriptedKind(endedInput?: JobKind["endedInput"]) {
  const runs: { ctx: JobContext; finish: (end: JobEnd | Error) => void }[] = [];
  const kind: JobKind = {
    run: (ctx) =>
      new Promise<JobEnd | null>((resolve, reject) => {
        ctx.signal.addEventListener("abort", () => resolve(null), { once: true });
        runs.push({ ctx, finish: (end) => (end instanceof Error ? reject(end) : resolve(end)) });
      }),
    endedInput,
  };
  return { kind, runs };
}

interface Harness {
  store: Store;
  runner: JobRunner;
  sent: { event: string; data: Record<string, unknown> }[];
  create(input?: unknown): Promise<string>;
  job(id: string): Promise<JobRecord>;
  /** A fresh runner on the same store, as after a restart. */
  restart(): JobRunner;
}

function harness(kind: JobKind, path = ":memory:"): Harness {
  const home = mkdtempSync(join(tmpdir(), "siphon-runner-"));
  homes.push(home);
  const config = loadConfig({}, { home });
  const store = openSqliteStore(path === ":memory:" ? path : join(home, path));
  const engines = createEngines(config);
  const sent: Harness["sent"] = [];
  const webhooks: WebhookSender = {
    send: (_hook, event, data) => void sent.push({ event, data }),
    drain: async () => {},
  };
  const runners: JobRunner[] = [];
  const make = () => {
    const runner = createJobRunner({
      config,
      store,
      engines,
      plans: loadPlans(config),
      webhooks,
      now: () => T0,
      kinds: { batch: async () => kind },
    });
    runners.push(runner);
    return runner;
  };
  cleanups.push(async () => {
    for (const r of runners) await r.close();
    await engines.close();
    await store.close();
  });
  return {
    store,
    runner: make(),
    sent,
    restart: make,
    async create(input = { secret: "k-123", task: "t" }) {
      const id = `batch_${crypto.randomUUID()}`;
      await store.jobs.create(
        {
          id,
          type: "batch",
          status: "queued",
          accountId: "acct",
          input,
          webhook: { url: "https://hooks.example/x" },
          error: null,
          createdAt: T0,
          updatedAt: T0,
          finishedAt: null,
          expiresAt: null,
          total: 1,
        },
        [],
      );
      return id;
    },
    job: async (id) => (await store.jobs.get(id)) as JobRecord,
  };
}

async function until<T>(read: () => Promise<T> | T, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read();
    if (ok(v)) return v;
    await Bun.sleep(5);
  }
  throw new Error("condition not reached");
}

const withoutSecret = (input: unknown) => ({ ...(input as object), secret: undefined });

describe("job kinds in the runner", () => {
  test("a kind's run is recorded: processing, then completed with retention, webhooks, done, secrets erased", async () => {
    const { kind, runs } = scriptedKind(withoutSecret);
    const h = harness(kind);
    const id = await h.create();
    const events: JobEvent[] = [];
    h.runner.subscribe(id, (e) => events.push(e));
    h.runner.submit(id);
    const [run] = await until(
      () => runs,
      (r) => r.length === 1,
    );
    expect(run?.ctx.fresh).toBe(true);
    expect((await h.job(id)).status).toBe("processing");
    expect(await h.store.jobs.setResult(id, { answer: 42 }, 3, T0)).toBe(true);
    run?.finish({ status: "completed", completed: { result: { answer: 42 } } });
    const done = await until(
      () => h.job(id),
      (j) => j.status === "completed",
    );
    expect(done).toMatchObject({
      result: { answer: 42 },
      creditsUsed: 3,
      total: 1,
      completed: 1,
      finishedAt: T0,
      expiresAt: T0 + DAY,
    });
    expect(done.input).toEqual({ task: "t" });
    expect(h.sent).toEqual([
      { event: "started", data: { jobId: id, type: "batch" } },
      { event: "completed", data: { jobId: id, total: 1, completed: 1, result: { answer: 42 } } },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", status: "completed", completed: 1, total: 1 });
  });

  test("a run that throws ends the job failed, notified, with its secrets erased", async () => {
    const { kind, runs } = scriptedKind(withoutSecret);
    const h = harness(kind);
    const id = await h.create();
    h.runner.submit(id);
    (
      await until(
        () => runs,
        (r) => r.length === 1,
      )
    )[0]?.finish(new SiphonError("answer_failed", "the model went away"));
    const failed = await until(
      () => h.job(id),
      (j) => j.status === "failed",
    );
    expect(failed).toMatchObject({ error: "the model went away", expiresAt: T0 + DAY });
    expect(failed.input).toEqual({ task: "t" });
    expect(h.sent.at(-1)).toEqual({ event: "failed", data: { jobId: id, error: "the model went away" } });
  });

  test("cancel aborts the run and erases secrets; a later end changes nothing, terminal stays terminal", async () => {
    const { kind, runs } = scriptedKind(withoutSecret);
    const h = harness(kind);
    const id = await h.create();
    h.runner.submit(id);
    const [run] = await until(
      () => runs,
      (r) => r.length === 1,
    );
    expect(await h.runner.cancel(id)).toBe("cancelled");
    expect(run?.ctx.signal.aborted).toBe(true);
    expect(await h.store.jobs.setResult(id, { late: true }, 1)).toBe(false);
    run?.finish({ status: "completed" });
    await Bun.sleep(20);
    const job = await h.job(id);
    expect(job).toMatchObject({ status: "cancelled", result: null, creditsUsed: 0 });
    expect(job.input).toEqual({ task: "t" });
    expect(await h.runner.cancel(id)).toBe("cancelled" satisfies JobStatus);
    expect(h.sent.map((s) => s.event)).toEqual(["started"]);
    expect(await h.runner.cancel("batch_unknown")).toBeNull();
  });

  test("every end erases the LLM keys any job type carries, whatever the kind keeps", async () => {
    const { kind, runs } = scriptedKind();
    const h = harness(kind);
    const input = {
      urls: ["https://a.example/"],
      llmApiKey: "sk-batch",
      scrapeOptions: { formats: ["markdown"], llmApiKey: "sk-crawl" },
    };
    const ended = { urls: ["https://a.example/"], scrapeOptions: { formats: ["markdown"] } };
    const completed = await h.create(input);
    const cancelled = await h.create(input);
    const failed = await h.create(input);
    for (const id of [completed, cancelled, failed]) h.runner.submit(id);
    await until(
      () => runs,
      (r) => r.length === 3,
    );
    // While the job runs the key stays: a job a dead process left is run again with it.
    expect((await h.job(completed)).input).toEqual(input);
    const runOf = (id: string) => runs.find((r) => r.ctx.job.id === id);
    runOf(completed)?.finish({ status: "completed" });
    runOf(failed)?.finish(new Error("broke"));
    expect(await h.runner.cancel(cancelled)).toBe("cancelled");
    for (const id of [completed, cancelled, failed]) {
      const job = await until(
        () => h.job(id),
        (j) => ["completed", "failed", "cancelled"].includes(j.status),
      );
      expect(job.input).toEqual(ended);
    }
  });

  test("a job's pages read whether its account is past the quota once a second, not once a page", async () => {
    const { kind, runs } = scriptedKind();
    const h = harness(kind);
    let reads = 0;
    const getAccount = h.store.accounts.getAccount.bind(h.store.accounts);
    h.store.accounts.getAccount = (id) => {
      reads++;
      return getAccount(id);
    };
    const id = await h.create();
    h.runner.submit(id);
    const [run] = await until(
      () => runs,
      (r) => r.length === 1,
    );
    const answers = await Promise.all(Array.from({ length: 20 }, () => run!.ctx.httpOnly()));
    expect(answers.every((a) => a === false)).toBe(true);
    expect(reads).toBe(1);
    run!.finish({ status: "completed" });
    await until(
      () => h.job(id),
      (j) => j.status === "completed",
    );
  });

  test("a job left processing by a dead runner is run again by the next, without a second started", async () => {
    const { kind, runs } = scriptedKind();
    const h = harness(kind, "jobs.db");
    const id = await h.create();
    h.runner.submit(id);
    await until(
      () => runs,
      (r) => r.length === 1,
    );
    // Closing leaves the job processing, as a killed process does.
    await h.runner.close();
    expect((await h.job(id)).status).toBe("processing");
    const next = h.restart();
    expect(await next.resume()).toBe(1);
    const [, second] = await until(
      () => runs,
      (r) => r.length === 2,
    );
    expect(second?.ctx.fresh).toBe(false);
    expect(second?.ctx.job.input).toEqual({ secret: "k-123", task: "t" });
    second?.finish({ status: "completed" });
    await until(
      () => h.job(id),
      (j) => j.status === "completed",
    );
    expect(h.sent.map((s) => s.event)).toEqual(["started", "completed"]);
  });
});

describe("job results in SQLite", () => {
  test("a database from before the result column opens with its jobs intact and takes results", async () => {
    const home = mkdtempSync(join(tmpdir(), "siphon-migrate-"));
    homes.push(home);
    const path = join(home, "old.db");
    const sqlite = new Database(path, { create: true });
    const db = drizzle(sqlite) as unknown as {
      dialect: { migrate(m: MigrationMeta[], session: unknown, config: object): void };
      session: unknown;
    };
    const before = SQLITE_MIGRATIONS.slice(0, -1);
    db.dialect.migrate(before, db.session, { migrationsFolder: "" });
    sqlite
      .prepare(
        "INSERT INTO jobs (id, type, status, account_id, input, total, created_at, updated_at) VALUES ('old', 'batch', 'processing', 'a', '{\"urls\":[]}', 1, 1, 1)",
      )
      .run();
    sqlite.close();
    const store = openSqliteStore(path);
    try {
      expect(await store.jobs.get("old")).toMatchObject({ input: { urls: [] }, result: null, total: 1 });
      expect(await store.jobs.setResult("old", { ok: 1 }, 2, 5)).toBe(true);
      expect(await store.jobs.get("old")).toMatchObject({ result: { ok: 1 }, creditsUsed: 2, completed: 1 });
    } finally {
      await store.close();
    }
  });
});
