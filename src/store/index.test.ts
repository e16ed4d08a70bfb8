import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config.ts";
import { SiphonError } from "../errors.ts";
import { openStore, openStoreOnUse } from "./index.ts";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.gen.ts";

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
const freshHome = () => {
  const home = mkdtempSync(join(tmpdir(), "siphon-store-on-use-"));
  homes.push(home);
  return home;
};

describe("openStoreOnUse", () => {
  test("a run that never uses the store leaves no database file behind", async () => {
    const home = freshHome();
    const store = await openStoreOnUse(loadConfig({ SIPHON_HOME: home }));
    expect(store.kind).toBe("sqlite");
    await store.close();
    expect(existsSync(join(home, "siphon.db"))).toBe(false);
  });

  test("the first use creates and migrates the file, and what is written is there for the next run", async () => {
    const home = freshHome();
    const config = loadConfig({ SIPHON_HOME: home });
    const store = await openStoreOnUse(config);
    await store.cache.set("k", "https://example.com/", { value: { a: 1 }, createdAt: 1000 });
    expect((await store.cache.get("k", 2000))?.value).toEqual({ a: 1 });
    await store.close();

    const db = new Database(join(home, "siphon.db"), { readonly: true });
    const rows = db.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    db.close();
    expect(rows.n).toBe(SQLITE_MIGRATIONS.length);
    const again = await openStore(config);
    expect((await again.cache.get("k", 2000))?.value).toEqual({ a: 1 });
    await again.close();
  });

  test("a bad DATABASE_URL or REDIS_URL is refused at once, as openStore refuses it", async () => {
    const home = freshHome();
    for (const env of [{ DATABASE_URL: "mysql://db/siphon" }, { REDIS_URL: "http://cache:6379" }]) {
      const error = await openStoreOnUse(loadConfig({ SIPHON_HOME: home, ...env })).catch((e) => e);
      expect(error).toBeInstanceOf(SiphonError);
      expect((error as SiphonError).type).toBe("invalid_request");
    }
    expect(existsSync(join(home, "siphon.db"))).toBe(false);
  });
});
