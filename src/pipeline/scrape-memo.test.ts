import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FixtureSite, startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { loadConfig } from "../config.ts";
import { FetchBody } from "../schemas/fetch.ts";
import { deepFreeze } from "../schemas/freeze.ts";
import { validate } from "../schemas/validate.ts";
import { openStore } from "../store/index.ts";
import type { Store } from "../store/types.ts";
import { createEngines } from "./engines.ts";
import { fetchPage } from "./fetch-page.ts";
import { scrape } from "./scrape.ts";

// A route shares one frozen input between the requests that send the same query; what the pipeline
// remembers of it must never carry one request's settings into another's.
let site: FixtureSite;
let home: string;
let store: Store;
beforeAll(async () => {
  site = await startFixtureSite();
  home = mkdtempSync(join(tmpdir(), "siphon-scrape-memo-"));
});
afterAll(async () => {
  await store?.close();
  site.stop();
  rmSync(home, { recursive: true, force: true });
});

const configWith = (cacheEnabled: boolean) =>
  loadConfig({}, { home, disableSsrfProtection: true, cacheEnabled, extractThreads: 0 });

describe("a frozen input scraped again", () => {
  test("is read from the cache under a configuration with the cache on, and fetched under one with it off", async () => {
    const cached = configWith(true);
    store = await openStore(cached);
    const engines = createEngines(cached);
    const input = deepFreeze(validate(FetchBody, { url: `${site.url}/article` }));
    site.resetHits();
    const first = await scrape({ fetch: input, accountId: "local" }, { config: cached, store, engines });
    const second = await scrape({ fetch: input, accountId: "local" }, { config: cached, store, engines });
    expect([first.cache.hit, second.cache.hit]).toEqual([false, true]);
    expect(site.hits("/article")).toBe(1);
    const uncached = configWith(false);
    const third = await scrape({ fetch: input, accountId: "local" }, { config: uncached, store, engines });
    expect(third.cache.hit).toBe(false);
    expect(site.hits("/article")).toBe(2);
    await engines.close();
  });

  test("straight to fetchPage follows the configuration it is fetched under", async () => {
    const cached = configWith(true);
    store ??= await openStore(cached);
    const engines = createEngines(cached);
    const input = deepFreeze(validate(FetchBody, { url: `${site.url}/docs` }));
    site.resetHits();
    await fetchPage(input, { config: cached, store, engines });
    expect((await fetchPage(input, { config: cached, store, engines })).cache.hit).toBe(true);
    expect((await fetchPage(input, { config: configWith(false), store, engines })).cache.hit).toBe(false);
    expect(site.hits("/docs")).toBe(2);
    await engines.close();
  });

  test("with a summary asked for gets one, after the same input without", async () => {
    const config = configWith(true);
    store ??= await openStore(config);
    const engines = createEngines(config);
    const input = deepFreeze(validate(FetchBody, { url: `${site.url}/article` }));
    const plain = await scrape({ fetch: input, accountId: "local" }, { config, store, engines });
    expect(plain.summary).toBeUndefined();
    const summarised = await scrape(
      { fetch: input, accountId: "local", summary: true },
      { config, store, engines },
    );
    expect(summarised.summary?.summary.length ?? 0).toBeGreaterThan(0);
    expect(summarised.result.summary?.length ?? 0).toBeGreaterThan(0);
    const again = await scrape({ fetch: input, accountId: "local" }, { config, store, engines });
    expect(again.result.summary).toBeUndefined();
    await engines.close();
  });

  test("keeps the plan's fetch frozen, so a layout of it is never stale", async () => {
    const config = configWith(true);
    store ??= await openStore(config);
    const engines = createEngines(config);
    const input = deepFreeze(
      validate(FetchBody, { url: `${site.url}/article`, formats: ["markdown", "links"] }),
    );
    const first = await scrape({ fetch: input, accountId: "local" }, { config, store, engines });
    const other = deepFreeze(validate(FetchBody, { url: `${site.url}/article`, formats: ["html"] }));
    const second = await scrape({ fetch: other, accountId: "local" }, { config, store, engines });
    expect(first.result.markdown?.length ?? 0).toBeGreaterThan(0);
    expect(first.result.html).toBeUndefined();
    expect(second.result.html?.length ?? 0).toBeGreaterThan(0);
    expect(second.result.markdown).toBeUndefined();
    await engines.close();
  });
});
