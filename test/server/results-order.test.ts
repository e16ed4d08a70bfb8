/**
 * Job results read while the job runs, on one process (SQLite, the in-process runner): every
 * page exactly once through each surface (test/helpers/results-order.ts).
 */
import { afterAll, beforeAll, describe } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type ResultsTarget, resultsOrderContract } from "../helpers/results-order.ts";
import { startUnevenSite, type UnevenSite } from "../helpers/uneven-site.ts";

let app: TestApp;
let site: UnevenSite;
let bigSite: UnevenSite;
let target: ResultsTarget;

beforeAll(async () => {
  site = startUnevenSite(41);
  bigSite = startUnevenSite(160);
  // No cache: every run fetches again, so pages finish in the order their delays make.
  app = await startTestApp({ escalation: false, fetchTimeoutMs: 10_000, cacheEnabled: false });
  const apiUrl = app.listen();
  target = { apiUrl, key: (await app.createKey("max")).key, site, bigSite };
});

afterAll(async () => {
  await app?.close();
  site?.stop();
  bigSite?.stop();
});

describe("one process on SQLite", () => {
  resultsOrderContract("SQLite", () => target);
});
