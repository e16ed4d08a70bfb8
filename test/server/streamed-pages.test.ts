import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";

/**
 * A page that streams its content after its shell (React's out-of-order
 * rendering: the product inside hidden segments that inline scripts move
 * into place) through the server with escalation on: its plain HTML already
 * holds the page a browser shows, so it is read without rendering it
 * (the site serves it once), and its markdown is the product.
 */

// A render, if one happened, takes a few seconds on a 2-core machine.
setDefaultTimeout(30_000);

const SOURCE = readFileSync(
  join(import.meta.dir, "..", "fixtures", "pages", "product-streamed", "source.html"),
  "utf8",
);

let app: TestApp;
let site: ReturnType<typeof Bun.serve>;
let origin: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path !== "/shirt") return new Response("not found", { status: 404 });
      return new Response(SOURCE, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
  origin = `http://127.0.0.1:${site.port}`;
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
  site.stop(true);
});

for (const onlyMainContent of [true, false]) {
  test(`GET /v1/fetch, onlyMainContent ${onlyMainContent}: the streamed product, read without a browser`, async () => {
    const before = hits.get("/shirt") ?? 0;
    const url = `${origin}/shirt`;
    const res = await app.request(
      `/v1/fetch?url=${encodeURIComponent(url)}&maxAge=0&formats=markdown&onlyMainContent=${onlyMainContent}`,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as FetchResult;
    expect(body.markdown).toStartWith("# Harbour linen shirt\n\n€68.00");
    expect(body.markdown).toContain("Regular fit, true to size");
    expect(body.markdown).not.toContain("Loading");
    expect(body.markdown).not.toContain("Aran Mills");
    expect(body.markdown).not.toContain("Your email address");
    // One request: the plain HTML was enough, no browser rendered the page again.
    expect(hits.get("/shirt")).toBe(before + 1);
  });
}
