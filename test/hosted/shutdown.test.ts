/**
 * Hosted processes shutting down (`siphon serve --role api|worker` on Redis and PostgreSQL):
 * an API process ends its event streams with a shutdown event and exits within the grace while
 * the crawl goes on on the worker; a worker whose Redis and PostgreSQL have stopped still exits
 * within the grace.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { postgresBin } from "../helpers/postgres.ts";
import { redisBin } from "../helpers/redis.ts";
import { type Cluster, type ServeProcess, startCluster, startLinkedSite } from "./cluster.ts";

const GRACE_MS = 3_000;
/** A process's own start-up and teardown around the shutdown (Bun exiting, pipes closing). */
const SLACK_MS = 1_500;

describe.skipIf(!redisBin() || !postgresBin())("hosted shutdown", () => {
  let cluster: Cluster;
  let site: ReturnType<typeof startLinkedSite>;
  let key: string;
  const headers = () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

  beforeAll(async () => {
    site = startLinkedSite(200, 40);
    cluster = await startCluster({
      SIPHON_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      SIPHON_QUEUE_STALL_MS: "3000",
    });
    ({ key } = await cluster.createKey("unlimited"));
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    site?.stop();
  }, 60_000);

  /** Sends SIGTERM and answers the exit code and how long the process took to exit, ms. */
  const terminate = async (served: ServeProcess) => {
    const started = performance.now();
    const code = await served.stop("SIGTERM");
    return { code, took: performance.now() - started };
  };

  test("an API process: its SSE follower gets the shutdown event, it exits within the grace, the crawl completes", async () => {
    const [api, worker] = await Promise.all([
      cluster.serve("api"),
      cluster.serve("worker", {}, ["--concurrency", "4"]),
    ]);
    const start = await fetch(`${api.url}/v1/crawl`, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({ url: `${site.url}/p/0`, limit: 60, maxDepth: 20 }),
    });
    expect(start.status).toBe(202);
    const { id } = (await start.json()) as { id: string };
    const stream = await fetch(`${api.url}/v1/crawl/${id}`, {
      headers: { ...headers(), accept: "text/event-stream" },
    });
    const events: { type: string; message?: string }[] = [];
    const decoder = new TextDecoder();
    let text = "";
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += decoder.decode(value, { stream: true });
        const blocks = text.split("\n\n");
        text = blocks.pop() ?? "";
        for (const block of blocks) if (block.startsWith("data: ")) events.push(JSON.parse(block.slice(6)));
      }
    })();
    for (let i = 0; i < 300 && !events.some((e) => e.type === "page"); i++) await Bun.sleep(20);
    expect(events.some((e) => e.type === "page")).toBe(true);
    const { code, took } = await terminate(api);
    await reading;
    expect(code).toBe(0);
    expect(took).toBeLessThan(GRACE_MS + SLACK_MS);
    expect(events.at(-1)).toMatchObject({ type: "shutdown" });
    // The job was the worker's: it goes on, and another API process sees it end.
    const other = await cluster.serve("api");
    let status = "";
    for (let i = 0; i < 300 && status !== "completed"; i++) {
      await Bun.sleep(100);
      status = (
        (await (await fetch(`${other.url}/v1/crawl/${id}`, { headers: headers() })).json()) as {
          status: string;
        }
      ).status;
    }
    expect(status).toBe("completed");
    for (const served of [other, worker]) expect((await terminate(served)).code).toBe(0);
  }, 90_000);

  test("a worker whose Redis and PostgreSQL have stopped exits within the grace", async () => {
    const worker = await cluster.serve("worker", {}, ["--concurrency", "4"]);
    const api = await cluster.serve("api");
    const start = await fetch(`${api.url}/v1/crawl`, {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({ url: `${site.url}/p/0`, limit: 100, maxDepth: 20 }),
    });
    expect(start.status).toBe(202);
    // The worker holds pages when its stores go.
    for (let i = 0; i < 300 && site.hits.size < 3; i++) await Bun.sleep(20);
    await Promise.all([cluster.redis.stop(), cluster.pg.stop()]);
    await Bun.sleep(500);
    const stopped = await Promise.all([terminate(worker), terminate(api)]);
    for (const { took } of stopped) expect(took).toBeLessThan(GRACE_MS + SLACK_MS);
  }, 90_000);
});
