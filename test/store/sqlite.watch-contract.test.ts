import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import { watchStoreContract } from "./watch-contract.ts";

const homes: string[] = [];
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

// A file, not :memory:, so that a second store on it is another process's view of the same data.
watchStoreContract("SQLite", () => ({
  async fresh() {
    const home = mkdtempSync(join(tmpdir(), "siphon-watch-contract-"));
    homes.push(home);
    const path = join(home, "siphon.db");
    return { open: async (options) => openSqliteStore(path, options) };
  },
}));
