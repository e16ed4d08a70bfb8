import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import {
  ARTICLE_SENTENCE,
  ARTICLE_TITLE,
  type FixtureSite,
  setWatchPlans,
  startFixtureSite,
  WATCH_PLANS,
} from "../helpers/fixture-site.ts";
import { FormClient, mainText, shownKey } from "./client.ts";

/**
 * The dashboard as a browser without JavaScript uses it, in process: sign-in, sessions and
 * their cookies, CSRF, keys, usage, jobs and the playground, against the same store the API
 * answers from.
 */

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site.stop();
});

const json = async <T>(response: Response) => (await response.json()) as T;

describe("on the loopback daemon", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  test("the first visit is signed in as the local account, with a strict, HttpOnly cookie for /dashboard", async () => {
    const browser = new FormClient(app.request);
    const first = await browser.get("/dashboard");
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/dashboard/usage");
    const [session] = browser.setCookies;
    expect(session).toMatch(
      /^siphon_session=[^;]+; Path=\/dashboard; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    const usage = await browser.get("/dashboard/usage");
    expect(usage.status).toBe(200);
    expect(mainText(browser.lastPage)).toContain("acct_local");
    // The local account's unlimited plan has nothing to upgrade and no hourly window to wait for.
    expect(mainText(browser.lastPage)).toContain("nothing to upgrade");
    expect(mainText(browser.lastPage)).not.toContain("Upgrade your plan");
    expect(mainText(browser.lastPage)).not.toContain("a slot frees");
    // The session is kept: no new cookie on the next page.
    expect(browser.setCookies).toEqual([]);
    expect((await browser.get("/dashboard/")).headers.get("location")).toBe("/dashboard/usage");
  });

  test("over HTTPS (or behind a proxy that says so) the cookie is Secure", async () => {
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/usage", { "x-forwarded-proto": "https" });
    expect(browser.setCookies[0]).toEndWith("; HttpOnly; SameSite=Strict; Secure");
  });

  test("a key created in the dashboard is shown once and works against the API as the local account's", async () => {
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/keys");
    expect(mainText(browser.lastPage)).toContain("Tier: unlimited");
    const created = await browser.post("/dashboard/keys", { name: "laptop", kind: "live" });
    expect(created.status).toBe(201);
    const key = shownKey(browser.lastPage);
    expect(key).toMatch(/^sph_live_/);
    expect(mainText(browser.lastPage)).toContain("it will not be shown again");
    expect(created.headers.get("cache-control")).toBe("no-store");
    const usage = await app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${key}` } });
    expect(usage.status).toBe(200);
    expect((await json<{ plan: { tier: string } }>(usage)).plan.tier).toBe("unlimited");
    // Listed by name and prefix, never whole again.
    await browser.get("/dashboard/keys");
    expect(browser.lastPage).toContain(`${key!.slice(0, 13)}…`);
    expect(browser.lastPage).not.toContain(key!);
    expect(shownKey(browser.lastPage)).toBeNull();
  });

  test("a form without the session's CSRF token changes nothing", async () => {
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/keys");
    const before = (await app.store.accounts.listKeys()).length;
    for (const csrf of [null, "forged", new FormClient(app.request).csrf()]) {
      const refused = await browser.post("/dashboard/keys", { csrf, name: "forged" });
      expect(refused.status).toBe(403);
      expect(mainText(browser.lastPage)).toContain("nothing was changed");
    }
    // Another session's token is not this one's.
    const other = new FormClient(app.request);
    await other.get("/dashboard/keys");
    expect((await browser.post("/dashboard/keys", { csrf: other.csrf(), name: "forged" })).status).toBe(403);
    expect((await app.store.accounts.listKeys()).length).toBe(before);
  });

  test("a form from another site is refused even with a valid token: Origin and Sec-Fetch-Site", async () => {
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/keys");
    const before = (await app.store.accounts.listKeys()).length;
    const attempts: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "http://localhost:9999" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of attempts) {
      expect((await browser.post("/dashboard/keys", { name: "forged" }, headers)).status).toBe(403);
    }
    expect((await app.store.accounts.listKeys()).length).toBe(before);
    // The same form from the dashboard itself goes through.
    await browser.get("/dashboard/keys");
    expect((await browser.post("/dashboard/keys", { name: "real" })).status).toBe(201);
  });

  test("a POST without a session is refused, not run as the local account", async () => {
    const stranger = new FormClient(app.request);
    const refused = await stranger.post("/dashboard/keys", { csrf: "x", name: "drive-by" });
    expect(refused.status).toBe(403);
    expect(stranger.cookies.size).toBe(0);
  });

  test("the Host check of the loopback daemon covers the dashboard (DNS rebinding)", async () => {
    const res = await app.request("/dashboard/keys", { headers: { host: "attacker.example" } });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).type).toBe("forbidden_host");
  });

  test("pages carry a script-free CSP, no-store and no framing; assets are served from the binary", async () => {
    const page = await app.request("/dashboard/usage");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\/(?!localhost)[^"]*\.(js|css)/);
    expect(html).not.toMatch(/<script>|style="/);
    for (const [path, type] of [
      ["/dashboard/assets/app.css?v=1", "text/css"],
      ["/dashboard/assets/app.js?v=1", "text/javascript"],
    ] as const) {
      const asset = await app.request(path);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toStartWith(type);
      expect((await asset.text()).length).toBeGreaterThan(500);
    }
  });

  test("an unknown dashboard page is an HTML 404 inside the dashboard", async () => {
    const res = await app.request("/dashboard/nothing/here");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(mainText(await res.text())).toContain("does not exist");
  });
});

describe("hosted (auth required)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      auth: "required",
      host: "0.0.0.0",
      adminKey: "operator-secret-key-0123456789",
    });
  });
  afterAll(async () => {
    await app.close();
  });

  async function signedIn(key: string): Promise<FormClient> {
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/sign-in");
    const res = await browser.post("/dashboard/sign-in", { key, next: "/dashboard/keys" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/keys");
    return browser;
  }

  test("pages send a visitor without a session to sign in, remembering the page", async () => {
    const browser = new FormClient(app.request);
    const res = await browser.get("/dashboard/jobs?x=1");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/sign-in?next=%2Fdashboard%2Fjobs%3Fx%3D1");
    expect(browser.cookies.has("siphon_session")).toBe(false);
  });

  test("signing in exchanges a key for a session cookie; bad keys are refused with the API's reasons", async () => {
    const { key } = await app.createKey("pro");
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/sign-in");
    for (const [bad, reason] of [
      ["nonsense", "not well-formed"],
      [`sph_live_${"A".repeat(32)}`, "unknown"],
    ]) {
      const res = await browser.post("/dashboard/sign-in", { key: bad! });
      expect(res.status).toBe(401);
      expect(mainText(browser.lastPage)).toContain(reason!);
      expect(browser.cookies.has("siphon_session")).toBe(false);
    }
    const res = await browser.post("/dashboard/sign-in", { key });
    expect(res.status).toBe(303);
    const session = browser.setCookies.find((c) => c.startsWith("siphon_session="));
    expect(session).toMatch(/; Path=\/dashboard; Max-Age=43200; HttpOnly; SameSite=Strict$/);
    // The key itself is never in the cookie.
    expect(session).not.toContain(key);
    await browser.get("/dashboard/usage");
    expect(mainText(browser.lastPage)).toContain("Plan: pro");
  });

  test("the sign-in form is CSRF-protected too (no login CSRF), and never follows next= off the dashboard", async () => {
    const { key } = await app.createKey();
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/sign-in");
    expect((await browser.post("/dashboard/sign-in", { key, csrf: "forged" })).status).toBe(403);
    expect(
      (await browser.post("/dashboard/sign-in", { key }, { origin: "http://evil.example" })).status,
    ).toBe(403);
    await browser.get("/dashboard/sign-in");
    const res = await browser.post("/dashboard/sign-in", { key, next: "https://evil.example/" });
    expect(res.headers.get("location")).toBe("/dashboard/usage");
  });

  test("an account sees and revokes only its own keys; revoking one makes the API refuse it", async () => {
    const mine = await app.createKey("starter");
    const theirs = await app.createKey("free");
    const browser = await signedIn(mine.key);
    expect(browser.lastPage).toBe("");
    await browser.get("/dashboard/keys");
    expect(browser.lastPage).toContain(mine.keyId);
    expect(browser.lastPage).not.toContain(theirs.keyId);
    expect(mainText(browser.lastPage)).toContain("Tier: starter");
    // Another account's key is not found, by link or by form.
    expect((await browser.get(`/dashboard/keys/${theirs.keyId}/revoke`)).status).toBe(404);
    await browser.get("/dashboard/keys");
    expect((await browser.post(`/dashboard/keys/${theirs.keyId}/revoke`, {})).status).toBe(404);
    expect(
      (await app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${theirs.key}` } })).status,
    ).toBe(200);

    await browser.post("/dashboard/keys", { name: "ci" });
    const ci = shownKey(browser.lastPage)!;
    const ciId = (await app.store.accounts.listKeys()).find((k) => k.prefix === ci.slice(0, 13))!.id;
    expect((await app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${ci}` } })).status).toBe(
      200,
    );
    const confirm = await browser.get(`/dashboard/keys/${ciId}/revoke`);
    expect(confirm.status).toBe(200);
    expect(mainText(browser.lastPage)).toContain("cannot be undone");
    const done = await browser.post(`/dashboard/keys/${ciId}/revoke`, {});
    expect(done.status).toBe(303);
    const refused = await app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${ci}` } });
    expect(refused.status).toBe(401);
    expect((await errorOf(refused)).type).toBe("invalid_token");
    await browser.get(done.headers.get("location")!);
    expect(mainText(browser.lastPage)).toContain("is revoked");
    expect(browser.lastPage).toContain('class="state-revoked"');
  });

  test("revoking the key a session signed in with ends the session", async () => {
    const { key, keyId } = await app.createKey();
    const browser = await signedIn(key);
    await browser.get(`/dashboard/keys/${keyId}/revoke`);
    expect(mainText(browser.lastPage)).toContain("revoking it signs you out");
    await browser.post(`/dashboard/keys/${keyId}/revoke`, {});
    const after = await browser.get("/dashboard/keys");
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toStartWith("/dashboard/sign-in");
  });

  test("signing out ends the session", async () => {
    const { key } = await app.createKey();
    const browser = await signedIn(key);
    await browser.get("/dashboard/usage");
    const cookie = browser.cookies.get("siphon_session")!;
    const out = await browser.post("/dashboard/sign-out", {});
    expect(out.status).toBe(303);
    expect(browser.setCookies.some((c) => c.startsWith("siphon_session=;") && c.includes("Max-Age=0"))).toBe(
      true,
    );
    // The old cookie, replayed, is no longer a session.
    const replay = await app.request("/dashboard/usage", { headers: { cookie: `siphon_session=${cookie}` } });
    expect(replay.status).toBe(303);
  });

  test("a forged or tampered session cookie is no session", async () => {
    const { key } = await app.createKey();
    const browser = await signedIn(key);
    const cookie = browser.cookies.get("siphon_session")!;
    const [body, mac] = cookie.split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, w: "operator" })).toString("base64url");
    for (const value of [`${forged}.${mac}`, `${body}.AAAA`, "garbage", `${body}`]) {
      const res = await app.request("/dashboard/usage", { headers: { cookie: `siphon_session=${value}` } });
      expect(res.status).toBe(303);
    }
  });

  test("the operator's admin key signs in to every account's keys and creates accounts of any tier", async () => {
    const other = await app.createKey("max");
    const browser = await signedIn("operator-secret-key-0123456789");
    await browser.get("/dashboard/keys");
    expect(browser.lastPage).toContain(other.keyId);
    expect(browser.lastPage).toContain(other.accountId);
    const created = await browser.post("/dashboard/keys", { name: "new customer", tier: "pro" });
    expect(created.status).toBe(201);
    const key = shownKey(browser.lastPage)!;
    const usage = await app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${key}` } });
    expect((await json<{ plan: { tier: string } }>(usage)).plan.tier).toBe("pro");
    await browser.get("/dashboard/usage");
    expect(mainText(browser.lastPage)).toContain("Operator sessions manage keys");
  });

  test("the playground without a key shows the demo endpoint's result and fetches nothing", async () => {
    site.resetHits();
    const browser = new FormClient(app.request);
    const res = await browser.get(`/dashboard/playground?url=${encodeURIComponent(`${site.url}/article`)}`);
    expect(res.status).toBe(200);
    const text = mainText(browser.lastPage);
    expect(text).toContain("POST /v1/demo");
    expect(text).toContain("tide mill");
    expect(text).toContain(`/v1/demo -d '{"kind":"fetch"}'`);
    expect(site.hits("/article")).toBe(0);
  });
});

describe("usage", () => {
  const clock = new TestClock(Date.UTC(2026, 10, 18, 12, 0, 0));
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ auth: "required", host: "0.0.0.0" }, clock);
  });
  afterAll(async () => {
    await app.close();
  });

  test("shows the week's credits, the burst window, the plan and 30 days of requests with their success rate", async () => {
    const { key } = await app.createKey("free");
    const headers = { authorization: `Bearer ${key}` };
    const fetchOk = () =>
      app.request(`/v1/fetch?url=${encodeURIComponent(`${site.url}/article`)}&maxAge=0`, { headers });
    const fetchBad = () => app.request("/v1/fetch?url=http://127.0.0.1:1/", { headers });
    // Three days ago: 2 good, 2 failed. Today: 3 good.
    clock.advance(-3 * 86_400_000);
    for (const call of [fetchOk, fetchOk, fetchBad, fetchBad]) await call();
    clock.advance(3 * 86_400_000);
    for (const call of [fetchOk, fetchOk, fetchOk]) await call();

    const browser = new FormClient(app.request);
    await browser.get("/dashboard/sign-in");
    await browser.post("/dashboard/sign-in", { key });
    await browser.get("/dashboard/usage");
    const page = browser.lastPage;
    const report = await json<{ weekly: { used: number; limit: number }; burst: { used: number } }>(
      await app.request("/v1/cli/usage", { headers }),
    );
    const stats = await json<{ totalRequests: number; successRate: number }>(
      await app.request("/v1/stats", { headers }),
    );
    expect(stats.totalRequests).toBe(7);
    expect(page).toContain(
      `<strong data-weekly-used>${report.weekly.used}</strong> of ${report.weekly.limit}`,
    );
    expect(page).toContain(`<meter id="weekly" aria-labelledby="weekly-label" min="0" max="125"`);
    expect(page).toContain(`<strong data-burst-used>${report.burst.used}</strong> of 25`);
    expect(page).toContain(`<span class="value" data-total-requests>7</span>`);
    expect(page).toContain(`${stats.successRate}%`);
    expect(page).toContain("Plan: <span data-plan>free</span>");
    expect(page).toContain('href="https://siphon.dev/pricing"');
    // The chart and its table: 30 days ending today, the two days with their counts and rates.
    expect(page).toContain("2026-10-20 to 2026-11-18");
    expect(page).toContain('<tr><th scope="row">2026-11-15</th><td>4</td><td>2</td><td>50%</td></tr>');
    expect(page).toContain('<tr><th scope="row">2026-11-18</th><td>3</td><td>3</td><td>100%</td></tr>');
    expect(page).toContain('<tr><th scope="row">2026-11-16</th><td>0</td><td>0</td><td>—</td></tr>');
    expect(page).toContain("2026-11-15: 4 requests, 50% succeeded");
    expect(page.match(/<rect class="bar"/g)?.length).toBe(30);
    expect(page).toContain('<polyline class="rate"');
  });
});

describe("jobs", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  async function crawl(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
    const res = await app.request("/v1/crawl", { method: "POST", body: JSON.stringify(body), headers });
    expect(res.status).toBe(202);
    return (await json<{ id: string }>(res)).id;
  }

  async function finished(id: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const job = await app.store.jobs.get(id);
      if (job && ["completed", "failed", "cancelled"].includes(job.status)) return;
      await Bun.sleep(25);
    }
    throw new Error(`${id} did not finish`);
  }

  test("a crawl's pages are listed with their markdown, rendered and raw", async () => {
    const id = await crawl({ url: `${site.url}/article`, maxDepth: 0, ignoreSitemap: true });
    await finished(id);
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/jobs");
    expect(browser.lastPage).toContain(`href="/dashboard/jobs/${id}"`);
    await browser.get(`/dashboard/jobs/${id}`);
    const page = browser.lastPage;
    expect(page).toContain('<progress max="100" value="100"');
    expect(page).toContain('<span data-status class="status-completed">completed</span>');
    expect(page).toContain(ARTICLE_TITLE);
    // Rendered: markdown became HTML; raw: the markdown as text.
    expect(page).toMatch(/<div class="rendered">[\s\S]*<p>[\s\S]*City Council/);
    expect(page).toMatch(/<pre>[\s\S]*City Council/);
    expect(mainText(page)).toContain(ARTICLE_SENTENCE.slice(0, 40));
    // Finished jobs are not followed live.
    expect(page).not.toContain("data-job-events");
  });

  test("a running job is followed live through the API's event stream, and cancelled from the page", async () => {
    const gen = (await import("../helpers/generated-site.ts")).startGeneratedSite(60, { latencyMs: 100 });
    try {
      const id = await crawl({
        url: `${gen.url}/g/0`,
        limit: 40,
        maxDepth: 20,
        ignoreSitemap: true,
        maxConcurrency: 1,
      });
      const browser = new FormClient(app.request);
      await browser.get(`/dashboard/jobs/${id}`);
      expect(browser.lastPage).toContain(`data-job-events="/dashboard/jobs/${id}/events"`);
      const events = await app.request(`/dashboard/jobs/${id}/events`, {
        headers: { cookie: `siphon_session=${browser.cookies.get("siphon_session")}` },
      });
      expect(events.headers.get("content-type")).toBe("text/event-stream");
      const reader = events.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toMatch(/^data: \{"type":"progress","status":"(queued|processing)"/);
      await reader.cancel();
      const cancelled = await browser.post(`/dashboard/jobs/${id}/cancel`, {});
      expect(cancelled.status).toBe(303);
      expect((await app.store.jobs.get(id))?.status).toBe("cancelled");
      await browser.get(cancelled.headers.get("location")!);
      expect(mainText(browser.lastPage)).toContain("the job is cancelled");
    } finally {
      gen.stop();
    }
  });

  test("another account's job is not found, nor cancelled", async () => {
    const { key } = await app.createKey();
    const id = await crawl({ url: `${site.url}/article`, maxDepth: 0 }, { authorization: `Bearer ${key}` });
    const browser = new FormClient(app.request);
    for (const path of [`/dashboard/jobs/${id}`, `/dashboard/jobs/${id}/events`]) {
      expect((await browser.get(path)).status).toBe(404);
    }
    await browser.get("/dashboard/jobs");
    expect(browser.lastPage).not.toContain(id);
    await browser.get("/dashboard/keys");
    expect((await browser.post(`/dashboard/jobs/${id}/cancel`, {})).status).toBe(404);
    expect((await app.store.jobs.get(id))?.status).not.toBe("cancelled");
  });
});

describe("watches", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  async function watch(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
    const res = await app.request("/v1/watch", { method: "POST", body: JSON.stringify(body), headers });
    expect(res.status).toBe(201);
    return (await json<{ watch: { id: string } }>(res)).watch.id;
  }
  const check = async (id: string, headers: Record<string, string> = {}) =>
    expect((await app.request(`/v1/watch/${id}/check`, { method: "POST", headers })).status).toBe(200);

  test("lists watches with their last check, and shows the diff of the last change", async () => {
    setWatchPlans("dash", WATCH_PLANS);
    const prices = await watch({ url: `${site.url}/watch/pricing/dash`, selector: "#plans", name: "prices" });
    const quiet = await watch({ url: `${site.url}/watch/pricing/dash-quiet`, selector: "#plans" });
    await check(prices);
    await check(quiet);
    setWatchPlans("dash", [WATCH_PLANS[0]!, { name: "Pro", price: "$39 per month" }]);
    await check(prices);

    const browser = new FormClient(app.request);
    await browser.get("/dashboard/watches");
    const page = browser.lastPage;
    const row = (id: string) => new RegExp(`<tr data-watch-id="${id}">[\\s\\S]*?</tr>`).exec(page)?.[0] ?? "";
    expect(row(prices)).toContain(">prices</a>");
    expect(row(prices)).toContain("1 of 2");
    expect(row(prices)).toMatch(/<time datetime="[^"]+">/);
    expect(row(quiet)).toContain("0 of 1");
    // The last change: what was added and removed, and the diff with its lines marked.
    const change = /<details class="panel" data-watch-change="([^"]+)">[\s\S]*?<\/details>/.exec(page);
    expect(change?.[1]).toBe(prices);
    expect(change?.[0]).toContain("Added: <q>$39 per month</q>");
    expect(change?.[0]).toContain("Removed: <q>$29 per month</q>");
    expect(change?.[0]).toMatch(/<span class="add">\+[^<]*\$39 per month/);
    expect(change?.[0]).toMatch(/<span class="del">-[^<]*\$29 per month/);
    expect(page).not.toContain(`data-watch-change="${quiet}"`);

    await browser.get(`/dashboard/watches/${prices}`);
    expect(mainText(browser.lastPage)).toContain("1 change in 2 checks");
    expect(browser.lastPage).toMatch(/<span class="add">\+[^<]*\$39 per month/);
    expect(mainText(browser.lastPage)).toContain("baseline");
  });

  test("another account's watch is not found", async () => {
    const { key } = await app.createKey();
    const theirs = await watch(
      { url: `${site.url}/watch/pricing/theirs` },
      { authorization: `Bearer ${key}` },
    );
    const browser = new FormClient(app.request);
    expect((await browser.get(`/dashboard/watches/${theirs}`)).status).toBe(404);
    await browser.get("/dashboard/watches");
    expect(browser.lastPage).not.toContain(theirs);
  });
});

describe("playground", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ auth: "required", host: "0.0.0.0" });
  });
  afterAll(async () => {
    await app.close();
  });

  test("fetches with the session's account, metered as the API meters it, and shows the same request as commands", async () => {
    const { key } = await app.createKey("free");
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/sign-in");
    await browser.post("/dashboard/sign-in", { key });
    await browser.get("/dashboard/playground");
    const url = `${site.url}/article`;
    const res = await browser.post("/dashboard/playground", { url, onlyMainContent: "on", noCache: "on" });
    expect(res.status).toBe(200);
    const page = browser.lastPage;
    expect(page).toMatch(/<div class="rendered" data-rendered>[\s\S]*<p>[\s\S]*City Council/);
    expect(page).toMatch(/<pre id="raw-markdown" data-raw>[\s\S]*City Council/);
    expect(page).toContain("&quot;fingerprint&quot;");
    expect(mainText(page)).toContain(
      `curl -s http://localhost/v1/fetch -H "Authorization: Bearer $SIPHON_API_KEY" -d '{"url":"${url}","onlyMainContent":true,"maxAge":0,"storeInCache":false}'`,
    );
    expect(mainText(page)).toContain(
      `siphon fetch ${url} --only-main-content --no-cache --api-url http://localhost`,
    );
    const usage = await json<{ weekly: { used: number }; burst: { used: number } }>(
      await app.request("/v1/cli/usage", { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(usage.weekly.used).toBe(1);
    expect(usage.burst.used).toBe(1);
  });

  test("a refused fetch shows the API's error and keeps the form", async () => {
    const { key } = await app.createKey("free");
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/sign-in");
    await browser.post("/dashboard/sign-in", { key });
    await browser.get("/dashboard/playground");
    const res = await browser.post("/dashboard/playground", { url: "ftp://example.com/x" });
    expect(res.status).toBe(403);
    expect(mainText(browser.lastPage)).toContain("forbidden_url");
    expect(browser.lastPage).toContain('value="ftp://example.com/x"');
  });
});

describe("junk on every dashboard route, signed in", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  test("answers a page (or a redirect), never a 5xx or a stack trace", async () => {
    const browser = new FormClient(app.request);
    await browser.get("/dashboard/keys");
    const ids = ["nope", "key_", "%ZZ", "..%2f..%2fetc", "😀", "x".repeat(5000), "__proto__"];
    const junkQueries = ["skip=-1", "skip=1e308", "skip=abc", "revoked=__proto__", "next=//evil", "url=%00"];
    const paths = [
      "/dashboard/usage",
      "/dashboard/keys",
      "/dashboard/jobs",
      "/dashboard/playground",
      "/dashboard/watches",
      ...ids.flatMap((id) => [
        `/dashboard/jobs/${id}`,
        `/dashboard/keys/${id}/revoke`,
        `/dashboard/watches/${id}`,
      ]),
    ];
    const failures: string[] = [];
    const judge = async (what: string, res: Response) => {
      const text = await res.text();
      if (res.status >= 500 || /\bat .+\.(ts|js):\d+|node_modules/.test(text))
        failures.push(`${what}: ${res.status}`);
    };
    for (const path of paths) {
      for (const query of ["", ...junkQueries]) {
        await judge(`GET ${path}?${query}`, await browser.get(`${path}?${query}`));
      }
    }
    const forms: Record<string, string>[] = [
      { name: "" },
      { name: "x".repeat(101) },
      { name: "ok", kind: "nonsense" },
      { url: "" },
      { url: "not a url" },
      { url: `${site.url}/article`, wait: "-5" },
      { url: `${site.url}/article`, wait: "abc" },
      { url: `${site.url}/article`, location: "!!" },
      { url: `${site.url}/article`, includeTags: ",,," },
    ];
    for (const path of [
      "/dashboard/keys",
      "/dashboard/playground",
      "/dashboard/jobs/nope/cancel",
      "/dashboard/keys/nope/revoke",
    ]) {
      for (const fields of forms) {
        await browser.get("/dashboard/keys");
        await judge(`POST ${path} ${JSON.stringify(fields)}`, await browser.post(path, fields));
      }
    }
    const huge = await browser.post("/dashboard/keys", { name: "x".repeat(100_000) });
    expect(huge.status).toBe(413);
    expect(failures).toEqual([]);
  });
});
