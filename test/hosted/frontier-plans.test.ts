/**
 * A crawl's two statements per page on PostgreSQL read a few rows however many pages wait: the
 * frontier read (the next pending items) and a page's finish. Each is run under EXPLAIN ANALYZE,
 * exactly as the store builds it, on a job with thousands of pending items and statistics older
 * than the crawl (as on a new deployment): the rows the plan read from job_items are counted.
 * Before, the frontier sorted every pending item of the job for each page, and the finish joined
 * the page with every pending item: both grew with the crawl.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { PgDialect } from "drizzle-orm/pg-core";
import { finishStatement, frontierQuery } from "../../src/store/pg-jobs.ts";
import { openPgStore } from "../../src/store/pg-store.ts";
import type { Store } from "../../src/store/types.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";

const PENDING = 3000;

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Node Type"?: string;
  Plans?: PlanNode[];
}

/** Rows the plan's scans of job_items returned, over all their loops. */
function itemRowsRead(node: PlanNode): number {
  const own =
    node["Relation Name"] === "job_items" && node["Node Type"]?.includes("Scan")
      ? (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + itemRowsRead(child), 0);
}

describe.skipIf(!postgresBin())("a crawl's per-page statements on PostgreSQL", () => {
  let pg: TestPostgres;
  let store: Store;
  let client: SQL;
  beforeAll(async () => {
    pg = await startPostgres();
    const url = await pg.createDatabase("frontier");
    store = await openPgStore(url, { maxConnections: 2 });
    // One connection, so that BEGIN, the statement and ROLLBACK share it.
    client = new SQL(url, { max: 1 });
    await store.jobs.create(
      {
        id: "crawl_big",
        type: "crawl",
        status: "processing",
        accountId: "acct_a",
        input: {},
        webhook: null,
        error: null,
        createdAt: 1,
        updatedAt: 1,
        finishedAt: null,
        expiresAt: null,
      },
      Array.from({ length: PENDING }, (_, i) => ({ url: `https://a.example/p${i}`, depth: 1 + (i % 3) })),
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await store?.close();
    await pg?.close();
  }, 30_000);

  const explain = async (query: string, params: unknown[]): Promise<PlanNode> => {
    await client.unsafe("BEGIN");
    try {
      const [row] = await client.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params as never[]);
      return (row["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
    } finally {
      await client.unsafe("ROLLBACK");
    }
  };

  test("the next pending items are read in index order, not sorted from every pending item", async () => {
    const { sql, params } = frontierQuery(drizzle(client), "crawl_big", 10).toSQL();
    const plan = await explain(sql, params);
    expect(itemRowsRead(plan)).toBeLessThanOrEqual(10);
    // What the store answers: the shallowest first, then in the order found.
    const next = await store.jobs.pending("crawl_big", 4);
    expect(next.map((it) => it.url)).toEqual([0, 3, 6, 9].map((i) => `https://a.example/p${i}`));
  });

  test("finishing two pages reads their two rows, not every pending item", async () => {
    const rows = [1, 2].map((i) => ({
      url: `https://a.example/p${i}`,
      state: "done" as const,
      data: JSON.stringify({ markdown: `page ${i}` }),
      error: null,
      credits: 1,
    }));
    const { sql, params } = new PgDialect().sqlToQuery(finishStatement("crawl_big", rows, 2));
    const plan = await explain(sql, params);
    // Each page's row is found, locked and updated: a handful of reads, whatever PENDING is.
    expect(itemRowsRead(plan)).toBeLessThanOrEqual(8);
    // Rolled back: both are still pending, and the store finishes them as before.
    await store.jobs.finishItem("crawl_big", rows[0]!.url, { state: "done", data: { a: 1 }, credits: 1 });
    const job = await store.jobs.get("crawl_big");
    expect([job?.completed, job?.creditsUsed]).toEqual([1, 1]);
    const [first] = await store.jobs.results("crawl_big", 0, 10);
    expect(first?.url).toBe(rows[0]!.url);
  });
});
