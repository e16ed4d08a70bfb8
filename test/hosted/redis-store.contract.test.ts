import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { openPgStore } from "../../src/store/pg-store.ts";
import { withRedis } from "../../src/store/redis-store.ts";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { Store } from "../../src/store/types.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { redisBin, startRedis, type TestRedis } from "../helpers/redis.ts";
import { storeContract } from "../store/contract.ts";

if (!redisBin()) {
  describe("Redis store contract", () => {
    test.skip("skipped: Redis is not installed (scripts/setup.sh installs it from apt)", () => {});
  });
} else {
  let redis: TestRedis;
  let admin: Redis;
  const homes: string[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url(0), { lazyConnect: true });
    admin.on("error", () => {});
    await admin.connect();
  }, 30_000);
  afterAll(async () => {
    admin?.disconnect();
    await redis?.close();
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });

  // The cache and usage run on Redis; the rest is SQLite's, so this checks the composition too.
  storeContract("SQLite + Redis", () => ({
    async fresh() {
      await admin.flushdb();
      const home = mkdtempSync(join(tmpdir(), "siphon-contract-"));
      homes.push(home);
      const path = join(home, "siphon.db");
      return {
        open: async (options) => withRedis(openSqliteStore(path, options), redis.url(0), options),
      };
    },
  }));

  if (postgresBin()) {
    let pg: TestPostgres;
    let url: string;
    beforeAll(async () => {
      pg = await startPostgres();
      url = await pg.createDatabase("contract");
      await (await openPgStore(url)).close();
    }, 60_000);
    afterAll(async () => {
      await pg?.close();
    }, 30_000);
    storeContract("PostgreSQL + Redis", () => ({
      async fresh() {
        await admin.flushdb();
        await pg.empty("contract");
        return { open: async (options) => withRedis(await openPgStore(url, options), redis.url(0), options) };
      },
    }));
  }

  describe("Redis: shared by several processes", () => {
    test("processes taking burst slots at once let exactly the limit through", async () => {
      await admin.flushdb();
      const home = mkdtempSync(join(tmpdir(), "siphon-contract-"));
      homes.push(home);
      const processes: Store[] = [];
      for (let i = 0; i < 3; i++)
        processes.push(await withRedis(openSqliteStore(join(home, `p${i}.db`)), redis.url(0)));
      try {
        const now = Date.now();
        const verdicts = await Promise.all(
          Array.from({ length: 300 }, (_, i) =>
            processes[i % 3]?.usage.takeBurstSlot("key:shared", now + (i % 5), 3_600_000, 100),
          ),
        );
        expect(verdicts.filter((v) => v?.allowed).length).toBe(100);
        for (const p of processes)
          expect((await p.usage.peekBurst("key:shared", now + 10, 3_600_000)).used).toBe(100);
      } finally {
        for (const p of processes) await p.close();
      }
    });
  });
}
