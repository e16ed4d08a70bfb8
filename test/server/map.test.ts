import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, SITEMAP_PATHS, startFixtureSite } from "../helpers/fixture-site.ts";

let site: FixtureSite;
let app: TestApp;
beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

const map = (body: Record<string, unknown>) =>
  app.request("/v1/map", { method: "POST", body: JSON.stringify(body) });

describe("POST /v1/map", () => {
  test("lists sitemap and linked URLs, normalised and deduplicated, start URL first", async () => {
    const res = await map({ url: `${site.url}/` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; links: string[] };
    expect(body.success).toBe(true);
    expect(body.links[0]).toBe(`${site.url}/`);
    for (const path of SITEMAP_PATHS) expect(body.links).toContain(`${site.url}${path === "/" ? "/" : path}`);
    expect(new Set(body.links).size).toBe(body.links.length);
    for (const link of body.links) expect(link).not.toContain("#");
    expect(res.headers.get("x-credits-used")).toBe("1");
  });

  test("search filters and limit cuts", async () => {
    const body = (await (await map({ url: site.url, search: "RECIPES", limit: 3 })).json()) as {
      links: string[];
    };
    expect(body.links).toHaveLength(3);
    for (const link of body.links) expect(link.toLowerCase()).toContain("recipes");
  });

  test("bad input and refused targets are format-B errors", async () => {
    expect((await errorOf(await map({ url: site.url, limit: 0 }))).message).toMatch(
      /limit must be an integer/,
    );
    expect((await errorOf(await map({}))).message).toMatch(/url is required/);
    const guarded = await startTestApp({ disableSsrfProtection: false });
    try {
      const res = await guarded.request("/v1/map", {
        method: "POST",
        body: JSON.stringify({ url: site.url }),
      });
      expect(res.status).toBe(403);
    } finally {
      await guarded.close();
    }
  });
});
