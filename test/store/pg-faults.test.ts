/**
 * PostgreSQL going away: store calls fail fast with store_unavailable (the
 * server answers it as a format-B 503), and service resumes by itself once
 * the database is back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import type { Socket } from "bun";
import { SiphonError } from "../../src/errors.ts";
import { openPgStore } from "../../src/store/pg-store.ts";
import type { Store } from "../../src/store/types.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { postgresBin, startPostgres, type TestPostgres } from "../helpers/postgres.ts";

/** The error `call` rejects with, and how long it took to reject. */
async function failure(call: () => unknown): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await call();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error("expected the call to fail");
}

/**
 * A TCP proxy to `port` whose network can go silent: from `silence()` on,
 * nothing passes in either direction and nothing is closed (as when a network
 * drops packets), new connections are accepted and never answered; after
 * `heal()` new connections pass again, while the silenced ones stay dead.
 */
function silenceableProxy(port: number) {
  type Side = { upstream?: Socket; queued: Uint8Array[]; dead: boolean };
  let silent = false;
  const clients = new Set<Socket<Side>>();
  const server = Bun.listen<Side>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      async open(client) {
        client.data = { queued: [], dead: silent };
        clients.add(client);
        if (silent) return;
        client.data.upstream = await Bun.connect({
          hostname: "127.0.0.1",
          port,
          socket: {
            data: (_, chunk) => {
              if (!client.data.dead) client.write(chunk);
            },
            close: () => {
              if (!client.data.dead) client.end();
            },
            error: () => {},
          },
        });
        for (const chunk of client.data.queued.splice(0)) client.data.upstream.write(chunk);
      },
      data(client, chunk) {
        if (client.data.dead) return;
        if (client.data.upstream) client.data.upstream.write(chunk);
        else client.data.queued.push(new Uint8Array(chunk));
      },
      close(client) {
        clients.delete(client);
        client.data.upstream?.end();
      },
      error() {},
    },
  });
  return {
    port: server.port,
    silence() {
      silent = true;
      for (const client of clients) client.data.dead = true;
    },
    heal() {
      silent = false;
    },
    async close() {
      for (const client of clients) {
        client.data.upstream?.end();
        client.end();
      }
      server.stop(true);
    },
  };
}

const unavailable = (error: unknown) => error instanceof SiphonError && error.type === "store_unavailable";

describe.skipIf(!postgresBin())("PostgreSQL going away", () => {
  let pg: TestPostgres;
  let url: string;
  const closing: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
    url = await pg.createDatabase("faults");
  }, 60_000);
  afterEach(async () => {
    await pg.start().catch(() => {});
    for (const c of closing.splice(0)) await c.close().catch(() => {});
  }, 30_000);
  afterAll(async () => {
    await pg?.close();
  }, 30_000);

  test("a stopped database fails every kind of call at once with store_unavailable; a restarted one serves again", async () => {
    const store: Store = await openPgStore(url);
    closing.push(store);
    await store.accounts.createAccount({
      id: "acct_f",
      name: "f",
      tier: "free",
      extraUsageEnabled: false,
      extraBalanceMicros: 0,
      createdAt: 1,
    });
    await pg.stop();
    const calls: [string, () => unknown][] = [
      ["accounts.getAccount", () => store.accounts.getAccount("acct_f")],
      ["usage.takeBurstSlot", () => store.usage.takeBurstSlot("key:k", Date.now(), 3_600_000, 10)],
      ["usage.weeklyCredits", () => store.usage.weeklyCredits("acct_f", 0)],
      ["jobs.get", () => store.jobs.get("job_x")],
      ["cache.get", () => store.cache.get("k", Date.now())],
      ["snapshots.latest", () => store.snapshots.latest("acct_f", "u", "")],
    ];
    for (const [name, call] of calls) {
      const { error, ms } = await failure(call);
      expect({ name, unavailable: unavailable(error) }).toEqual({ name, unavailable: true });
      expect(ms).toBeLessThan(1_000);
    }
    const { error } = await failure(() => store.accounts.getAccount("acct_f"));
    expect((error as SiphonError).status).toBe(503);
    // Names neither the server nor the URL.
    expect((error as SiphonError).message).not.toContain(String(pg.port));
    await pg.start();
    expect((await store.accounts.getAccount("acct_f"))?.tier).toBe("free");
    expect((await store.usage.takeBurstSlot("key:k", Date.now(), 3_600_000, 10)).allowed).toBe(true);
  }, 60_000);

  test("a network that goes silent fails calls within the timeout, and the store recovers when it heals", async () => {
    const network = silenceableProxy(pg.port);
    closing.push(network);
    // One connection: without a new pool after the silence, every later call would queue behind it.
    const store = await openPgStore(url.replace(`:${pg.port}/`, `:${network.port}/`), {
      timeoutMs: 500,
      connectTimeoutMs: 500,
      maxConnections: 1,
    });
    closing.push(store);
    expect(await store.jobs.get("job_x")).toBeNull();
    network.silence();
    for (let i = 0; i < 2; i++) {
      const { error, ms } = await failure(() => store.jobs.get("job_x"));
      expect(unavailable(error)).toBe(true);
      expect(ms).toBeLessThan(3_000);
    }
    network.heal();
    expect(await store.jobs.get("job_x")).toBeNull();
  }, 60_000);

  test("the server answers a 503 in format B while the database is down, and serves again when it is back", async () => {
    const app: TestApp = await startTestApp({ databaseUrl: url, auth: "required" });
    closing.push(app);
    const { key } = await app.createKey("free");
    const stats = () => app.request("/v1/stats", { headers: { authorization: `Bearer ${key}` } });
    expect((await stats()).status).toBe(200);
    await pg.stop();
    const started = performance.now();
    const down = await stats();
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    const body = await errorOf(down);
    expect(body.type).toBe("store_unavailable");
    expect(body.message).toContain("retry");
    expect(app.logs.join("\n")).not.toContain("internal");
    await pg.start();
    const back = await stats();
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ totalRequests: expect.any(Number) });
  }, 60_000);
});
