/**
 * Choosing the store from the configuration, and `siphon migrate` on each:
 * what it applies, what it prints, its exit codes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import { migrateStore, openStore } from "../../src/store/index.ts";
import { PgConnection } from "../../src/store/pg-connection.ts";
import { migratePg } from "../../src/store/pg-migrate.ts";
import { PG_MIGRATIONS } from "../../src/store/pg-migrations.gen.ts";
import { openPgStore } from "../../src/store/pg-store.ts";
import { SQLITE_MIGRATIONS } from "../../src/store/sqlite-migrations.gen.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { run } from "../helpers/run.ts";

const main = join(import.meta.dir, "../../cli/main.ts");
const homes: string[] = [];
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
const freshHome = () => {
  const home = mkdtempSync(join(tmpdir(), "siphon-migrate-"));
  homes.push(home);
  return home;
};

/** `siphon migrate` with only the environment given. */
const migrate = (env: Record<string, string>, ...args: string[]) =>
  run([process.execPath, main, "migrate", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: env.SIPHON_HOME ?? freshHome(), NO_COLOR: "1", ...env },
  });

describe("the configured store", () => {
  test("without DATABASE_URL it is the SQLite file in SIPHON_HOME", async () => {
    const home = freshHome();
    const store = await openStore(loadConfig({}, { home }));
    expect(store.kind).toBe("sqlite");
    await store.close();
    expect(await Bun.file(join(home, "siphon.db")).exists()).toBe(true);
  });

  test("a DATABASE_URL that is not a postgres URL is refused, not quietly replaced by SQLite", async () => {
    for (const databaseUrl of ["mysql://db/siphon", "sqlite:///tmp/x.db", "localhost:5432"]) {
      const config = loadConfig({}, { home: freshHome(), databaseUrl });
      const error = await openStore(config).catch((e) => e);
      expect(error).toBeInstanceOf(SiphonError);
      expect((error as SiphonError).type).toBe("invalid_request");
    }
  });

  test("siphon migrate on SQLite applies every migration once, then nothing", async () => {
    const home = freshHome();
    const first = await migrate({ SIPHON_HOME: home }, "--json");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      kind: "sqlite",
      location: join(home, "siphon.db"),
      applied: SQLITE_MIGRATIONS.map((m) => m.tag),
      total: SQLITE_MIGRATIONS.length,
    });
    const again = await migrate({ SIPHON_HOME: home });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("schema up to date");
    expect(again.stdout).toContain("nothing to apply");
  });

  test("siphon migrate with a DATABASE_URL that is not postgres exits 2", async () => {
    const result = await migrate({ SIPHON_HOME: freshHome(), DATABASE_URL: "mysql://db/x" }, "--json");
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout).error.type).toBe("invalid_request");
  });
});

describe.skipIf(!postgresBin())("the configured store on PostgreSQL", () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  }, 30_000);

  test("a postgres DATABASE_URL selects PostgreSQL, migrated on open", async () => {
    const url = await pg.createDatabase("selected");
    for (const databaseUrl of [url, url.replace("postgres://", "postgresql://")]) {
      const store = await openStore(loadConfig({}, { home: freshHome(), databaseUrl }));
      expect(store.kind).toBe("postgres");
      await store.accounts.createAccount({
        id: `acct_${databaseUrl.length}`,
        name: "n",
        tier: "free",
        extraUsageEnabled: false,
        extraBalanceMicros: 0,
        createdAt: 1,
      });
      await store.close();
    }
  });

  test("processes starting together on a new database migrate it once, without racing", async () => {
    const url = await pg.createDatabase("together");
    // Connected first, so the migrations really start at once.
    const processes = Array.from({ length: 4 }, () => new PgConnection(url));
    await Promise.all(processes.map((p) => p.run((db) => db.execute(sql`SELECT 1`))));
    const applied = await Promise.all(processes.map((p) => migratePg(p)));
    // Every migration applied exactly once, by whichever process got there first.
    expect(applied.flat().sort()).toEqual(PG_MIGRATIONS.map((m) => m.tag).sort());
    for (const p of processes) await p.close();
    const store = await openPgStore(url);
    expect(await store.jobs.unfinished()).toEqual([]);
    await store.close();
    expect((await migrateStore(loadConfig({}, { home: freshHome(), databaseUrl: url }))).applied).toEqual([]);
  });

  test("siphon migrate applies every migration once, then nothing, and never prints the password", async () => {
    const url = (await pg.createDatabase("cli")).replace("postgres@", "postgres:s3cret@");
    const first = await migrate({ DATABASE_URL: url }, "--json");
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toEqual({
      kind: "postgres",
      location: url.replace("s3cret", "***"),
      applied: PG_MIGRATIONS.map((m) => m.tag),
      total: PG_MIGRATIONS.length,
    });
    const again = await migrate({ DATABASE_URL: url });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("PostgreSQL store at");
    expect(again.stdout).toContain("nothing to apply");
    expect(first.stdout + first.stderr + again.stdout + again.stderr).not.toContain("s3cret");
  });

  test("siphon migrate against a database that is down exits 1 with store_unavailable", async () => {
    const result = await migrate({ DATABASE_URL: "postgres://postgres:s3cret@127.0.0.1:1/none" }, "--json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.type).toBe("store_unavailable");
    expect(result.stdout + result.stderr).not.toContain("s3cret");
  });
});
