import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openPgStore } from "../../src/store/pg-store.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { type Backend, storeContract } from "./contract.ts";
import { watchStoreContract } from "./watch-contract.ts";

if (!postgresBin()) {
  describe("PostgreSQL store and watch store contracts", () => {
    test.skip("skipped: PostgreSQL is not installed (scripts/setup.sh installs it from apt)", () => {});
  });
} else {
  let pg: TestPostgres;
  let url: string;
  beforeAll(async () => {
    pg = await startPostgres();
    url = await pg.createDatabase("contract");
    // Migrated once; each test then starts from emptied tables (a new database costs far more).
    await (await openPgStore(url)).close();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  }, 30_000);
  // Two stores on the database are two processes: each its own pool of connections.
  const backend = (): Backend => ({
    async fresh() {
      await pg.empty("contract");
      return { open: (options) => openPgStore(url, { maxConnections: 4, ...options }) };
    },
  });
  storeContract("PostgreSQL", backend);
  watchStoreContract("PostgreSQL", backend);

  // Beyond the contract: SQLite keeps burst windows in its one server process; PostgreSQL shares them.
  describe("PostgreSQL: shared by several processes", () => {
    test("processes taking burst slots at once let exactly the limit through", async () => {
      await pg.empty("contract");
      const processes = await Promise.all(Array.from({ length: 3 }, () => openPgStore(url)));
      try {
        const now = Date.now();
        const verdicts = await Promise.all(
          Array.from({ length: 45 }, (_, i) =>
            processes[i % 3]?.usage.takeBurstSlot("key:shared", now + (i % 5), 3_600_000, 10),
          ),
        );
        expect(verdicts.filter((v) => v?.allowed).length).toBe(10);
        for (const p of processes)
          expect((await p.usage.peekBurst("key:shared", now + 10, 3_600_000)).used).toBe(10);
      } finally {
        for (const p of processes) await p.close();
      }
    });
  });
}
