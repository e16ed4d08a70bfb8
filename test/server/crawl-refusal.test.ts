import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type GeneratedSite, startGeneratedSite } from "../helpers/generated-site.ts";

/**
 * A crawl or batch whose start URL the SSRF guard refuses is refused when it is submitted (403
 * forbidden_url, as a fetch of it is), not accepted and failed later. No refused address is ever
 * connected to: literals and names are refused before any connection.
 */

let gen: GeneratedSite;
let app: TestApp;

/** A name other than localhost that /etc/hosts maps to a loopback address (the machine's own name), if any. */
function loopbackName(): string | undefined {
  const lines = readFileSync("/etc/hosts", "utf8").split("\n");
  for (const line of lines) {
    const [address, ...names] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (!address?.startsWith("127.")) continue;
    const name = names.find(
      (n) => n !== "localhost" && !n.endsWith(".localhost") && /^[a-z0-9.-]+$/i.test(n),
    );
    if (name) return name;
  }
  return undefined;
}

const REFUSED = [
  "http://localhost/",
  "http://127.0.0.1:9/",
  "http://10.1.2.3/",
  "http://[::1]/",
  "http://169.254.169.254/latest/meta-data/",
];

beforeAll(async () => {
  gen = startGeneratedSite(20);
  // SSRF protection on, as in production, with the generated site (on loopback) let through.
  app = await startTestApp({
    escalation: false,
    disableSsrfProtection: false,
    ssrfAllow: new URL(gen.url).host,
  });
});
afterAll(async () => {
  await app.close();
  gen.stop();
});

const post = (path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const jobCount = async () => ((await (await app.request("/v1/jobs")).json()) as { count: number }).count;

describe("native crawl and batch", () => {
  test("a refused start URL is 403 forbidden_url at submit, and no job is created", async () => {
    const before = await jobCount();
    const name = loopbackName();
    for (const url of [...REFUSED, ...(name ? [`http://${name}/`] : [])]) {
      const res = await post("/v1/crawl", { url, limit: 2 });
      expect({ url, status: res.status }).toEqual({ url, status: 403 });
      const error = await errorOf(res);
      expect(error.type).toBe("forbidden_url");
      expect(error.message).toMatch(/local address|not a public address/);
    }
    expect(await jobCount()).toBe(before);
  });

  test("an allowed start URL is accepted as before", async () => {
    const res = await post("/v1/crawl", { url: `${gen.url}/g/0`, limit: 1 });
    expect(res.status).toBe(202);
  });

  test("a batch whose every URL is refused is 403; one with some refused runs, each refused URL failing alone", async () => {
    const all = await post("/v1/batch/scrape", { urls: ["http://10.0.0.1/", "http://localhost/x"] });
    expect(all.status).toBe(403);
    expect((await errorOf(all)).message).toContain("Every URL of the batch is refused");
    const some = await post("/v1/batch/scrape", { urls: [`${gen.url}/g/1`, "http://10.0.0.1/"] });
    expect(some.status).toBe(202);
    const { id } = (await some.json()) as { id: string };
    let poll: { status: string; data: { url?: string; error?: { type: string } }[] } = {
      status: "",
      data: [],
    };
    for (let i = 0; i < 100 && poll.status !== "completed"; i++) {
      await Bun.sleep(50);
      poll = (await (await app.request(`/v1/batch/scrape/${id}`)).json()) as typeof poll;
    }
    expect(poll.status).toBe("completed");
    expect(JSON.stringify(poll.data)).toContain("forbidden_url");
  });
});

describe("Firecrawl's crawl and batch", () => {
  test("a refused start URL is Firecrawl's 403 at submit, v2 and v1", async () => {
    for (const path of ["/v2/crawl", "/v1/crawl"]) {
      const res = await post(path, { url: "http://127.0.0.1:9/", limit: 2, origin: "js-sdk" });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, code: "forbidden_url" });
    }
  });

  test("a refused batch URL is a 403 naming it, unless ignoreInvalidURLs lists it in invalidURLs", async () => {
    const urls = [`${gen.url}/g/2`, "http://192.168.1.1/"];
    const refused = await post("/v2/batch/scrape", { urls });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toStartWith("urls[1]:");
    const ignored = await post("/v2/batch/scrape", { urls, ignoreInvalidURLs: true });
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toMatchObject({ success: true, invalidURLs: ["http://192.168.1.1/"] });
  });
});
