/**
 * Job results read while the job runs, on the hosted queue: an API process and two workers on
 * PostgreSQL and Redis, pages of one job finished by either worker. Every page exactly once
 * through each surface (test/helpers/results-order.ts), as on one process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { postgresBin } from "../helpers/postgres.ts";
import { type ResultsTarget, resultsOrderContract } from "../helpers/results-order.ts";
import { startUnevenSite, type UnevenSite } from "../helpers/uneven-site.ts";
import { type Cluster, startCluster } from "./cluster.ts";

if (postgresBin()) {
  let cluster: Cluster;
  let site: UnevenSite;
  let bigSite: UnevenSite;
  let target: ResultsTarget;

  beforeAll(async () => {
    site = startUnevenSite(41);
    bigSite = startUnevenSite(160);
    // No cache: every run fetches again, so pages finish in the order their delays make.
    cluster = await startCluster({ SIPHON_CACHE: "false", SIPHON_ESCALATION: "false" });
    const [api] = await Promise.all([
      cluster.serve("api"),
      cluster.serve("worker", { SIPHON_USER_AGENT: "worker-a" }, ["--concurrency", "4"]),
      cluster.serve("worker", { SIPHON_USER_AGENT: "worker-b" }, ["--concurrency", "4"]),
    ]);
    target = { apiUrl: api.url, key: (await cluster.createKey("unlimited")).key, site, bigSite };
  }, 90_000);

  afterAll(async () => {
    await cluster?.close();
    site?.stop();
    bigSite?.stop();
  }, 60_000);

  describe("hosted: one API and two workers on PostgreSQL and Redis", () => {
    resultsOrderContract("hosted", () => target);

    test("both workers fetched pages of these jobs", () => {
      const agents = [...site.agents.keys(), ...bigSite.agents.keys()];
      expect(agents).toContain("worker-a");
      expect(agents).toContain("worker-b");
    });
  });
}
