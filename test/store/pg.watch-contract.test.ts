import { afterAll, beforeAll, describe, test } from "bun:test";
import { openPgStore } from "../../src/store/pg-store.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";
import { watchStoreContract } from "./watch-contract.ts";

if (!postgresBin()) {
  describe("PostgreSQL watch store contract", () => {
    test.skip("skipped: PostgreSQL is not installed (scripts/setup.sh installs it from apt)", () => {});
  });
} else {
  let pg: TestPostgres;
  let url: string;
  beforeAll(async () => {
    pg = await startPostgres();
    url = await pg.createDatabase("watches");
    // Migrated once; each test then starts from emptied tables (a new database costs far more).
    await (await openPgStore(url)).close();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  }, 30_000);
  // Two stores on the database are two processes: each its own pool of connections.
  watchStoreContract("PostgreSQL", () => ({
    async fresh() {
      await pg.empty("watches");
      return { open: (options) => openPgStore(url, { maxConnections: 4, ...options }) };
    },
  }));
}
