import { expect, test } from "bun:test";
import { loadConfig } from "../../config.ts";
import type { FetchEngine } from "../../fetch/types.ts";
import type { Engines } from "../../pipeline/engines.ts";
import { openSqliteStore } from "../../store/sqlite.ts";
import type { JobRecord } from "../../store/types.ts";
import { openPageRun } from "./pages.ts";
import type { JobContext } from "./types.ts";

const batch: JobRecord = {
  id: "batch_1",
  type: "batch",
  status: "processing",
  accountId: "local",
  keyId: null,
  input: { urls: ["https://a.example/"] },
  webhook: null,
  total: 1,
  completed: 0,
  failed: 0,
  creditsUsed: 0,
  error: null,
  createdAt: 1,
  updatedAt: 1,
  finishedAt: null,
  expiresAt: null,
  result: null,
};

test("a page job starts the extraction threads as it opens, with a queue too", async () => {
  const store = openSqliteStore(":memory:");
  for (const dispatch of [undefined, async () => {}]) {
    const calls: string[] = [];
    const engines: Engines = {
      get: async (name) => {
        calls.push(`get ${name}`);
        return { name, fetch: async () => Promise.reject(new Error("offline")) } as FetchEngine;
      },
      startExtraction: () => void calls.push("start extraction"),
    };
    const ctx = {
      job: batch,
      config: loadConfig({}),
      store,
      engines,
      signal: new AbortController().signal,
      dispatch,
    } as unknown as JobContext;
    await openPageRun(ctx);
    // Before the job's first fetch, so the threads load while it waits.
    expect(calls).toEqual(["start extraction", "get simple"]);
  }
  await store.close();
});
