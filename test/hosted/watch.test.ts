/**
 * Watches in hosted mode: created through an API process, stored in PostgreSQL, checked by
 * the workers' schedulers (each watch by one worker), never by an API-only process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { postgresBin } from "../helpers/postgres.ts";
import { redisBin } from "../helpers/redis.ts";
import { type Cluster, type ServeProcess, startCluster } from "./cluster.ts";

interface WatchShape {
  id: string;
  url: string;
  checkCount: number;
  lastCheckedAt: string | null;
  lastFingerprint: string | null;
}
interface CheckShape {
  trigger: string;
  status: string;
  addedText?: string[];
  removedText?: string[];
}

/** A page per path whose price can be changed, counting the requests for each path and who made them. */
function startPriceSite() {
  const hits = new Map<string, number>();
  const byAgent = new Map<string, number>();
  let price = 29;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const agent = request.headers.get("user-agent") ?? "";
      byAgent.set(agent, (byAgent.get(agent) ?? 0) + 1);
      return new Response(
        `<!doctype html><html><head><title>Pricing</title></head><body><main><h1>Pricing ${path}</h1>` +
          `<p>Pro costs $${price} per month, billed monthly. Cancel at any time.</p></main></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    hits,
    byAgent,
    setPrice: (next: number) => {
      price = next;
    },
    stop: () => server.stop(true),
  };
}

describe.skipIf(!redisBin() || !postgresBin())("hosted mode: watches", () => {
  let cluster: Cluster;
  let site: ReturnType<typeof startPriceSite>;
  let api: ServeProcess;
  let key: string;
  const headers = () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
  const call = async <T>(through: ServeProcess, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${through.url}${path}`, {
      method,
      headers: headers(),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    site = startPriceSite();
    // Every process is asked to run the scheduler: the role decides whether it does.
    cluster = await startCluster({ SIPHON_WATCH_SCHEDULER: "true" });
    api = await cluster.serve("api");
    ({ key } = await cluster.createKey("unlimited"));
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    site?.stop();
  }, 60_000);

  test("watches created through the API are checked by the workers, each by one worker once; API processes check none", async () => {
    const paths = Array.from({ length: 6 }, (_, i) => `/pricing/${i}`);
    const ids: string[] = [];
    for (const path of paths) {
      const created = await call<{ watch: WatchShape }>(api, "POST", "/v1/watch", {
        url: `${site.url}${path}`,
        checkIntervalMinutes: 60,
      });
      expect(created.status).toBe(201);
      ids.push(created.body.watch.id);
    }

    // An API process that starts with due watches in the store leaves them to the workers.
    const second = await cluster.serve("api");
    await Bun.sleep(1_500);
    expect(site.hits.size).toBe(0);
    const unchecked = await call<{ watch: WatchShape }>(second, "GET", `/v1/watch/${ids[0]}`);
    expect(unchecked.body.watch).toMatchObject({ checkCount: 0, lastCheckedAt: null });

    // Two workers start together and compete for the same due watches.
    await Promise.all(
      ["worker-a", "worker-b"].map((agent) => cluster.serve("worker", { SIPHON_USER_AGENT: agent })),
    );
    const deadline = Date.now() + 30_000;
    let watches: WatchShape[] = [];
    for (;;) {
      watches = (await call<{ watches: WatchShape[] }>(second, "GET", "/v1/watch")).body.watches;
      if (watches.length === 6 && watches.every((w) => w.checkCount >= 1)) break;
      if (Date.now() > deadline) throw new Error(`not all checked in 30 s: ${JSON.stringify(watches)}`);
      await Bun.sleep(100);
    }
    // A moment more: a watch claimed twice would be fetched twice now.
    await Bun.sleep(500);
    for (const path of paths) expect(site.hits.get(path)).toBe(1);
    expect((site.byAgent.get("worker-a") ?? 0) + (site.byAgent.get("worker-b") ?? 0)).toBe(6);
    for (const id of ids) {
      const { body } = await call<{ watch: WatchShape; history: CheckShape[] }>(
        api,
        "GET",
        `/v1/watch/${id}`,
      );
      expect(body.watch.checkCount).toBe(1);
      expect(body.watch.lastFingerprint).not.toBeNull();
      expect(body.history.map((c) => [c.trigger, c.status])).toEqual([["scheduled", "baseline"]]);
    }

    // The baseline the worker recorded is what a check through the other API compares with.
    site.setPrice(39);
    const checked = await call<CheckShape>(second, "POST", `/v1/watch/${ids[0]}/check`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ trigger: "manual", status: "changed" });
    expect(checked.body.addedText?.join("\n")).toContain("$39");
    expect(checked.body.removedText?.join("\n")).toContain("$29");
  }, 90_000);
});
