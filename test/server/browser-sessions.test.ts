import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Firecrawl, { SdkError } from "@mendable/firecrawl-js";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, FORM_RESULT_PREFIX, startFixtureSite } from "../helpers/fixture-site.ts";
import { mcpCall } from "../helpers/mcp-call.ts";

/**
 * Browser sessions in real Chromium: a page kept open between requests, acted on step by step
 * and read in between; their caps, their end, and the SSRF guard on every step.
 */

const BROWSER_MS = 60_000;

/** A key of its own account on the app (the MCP endpoint always wants one). */
const guardedKey = () => app.createKey("max");

let site: FixtureSite;
let app: TestApp;
let guarded: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp({ escalation: false, browserConcurrency: 3, browserSessionsPerAccount: 1 });
  guarded = await startTestApp({ escalation: false, disableSsrfProtection: false });
});
afterAll(async () => {
  await app.close();
  await guarded.close();
  await site.stop();
});

const post = (
  on: TestApp,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) =>
  on.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

async function json<T>(response: Response): Promise<T> {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

describe("siphon's browser sessions", () => {
  test(
    "open at a page, act step by step, read in between; list; close; a closed session is 404",
    async () => {
      const opened = await json<{ id: string; url: string; expiresAt: string }>(
        await post(app, "/v1/browser", { url: `${site.url}/form`, ttl: 120 }),
      );
      expect(opened.id).toStartWith("browser_");
      expect(opened.url).toStartWith(`${site.url}/form`);
      const id = opened.id;

      const before = await json<FetchResult>(await post(app, `/v1/browser/${id}/read`, { format: "text" }));
      expect(before.content).not.toContain(`${FORM_RESULT_PREFIX}kettles`);

      const typed = await json<{ actions: { javascriptReturns: unknown[] } }>(
        await post(app, `/v1/browser/${id}/actions`, {
          actions: [
            { type: "type", selector: "#q", text: "kettles" },
            { type: "executeJavascript", script: "return document.querySelector('#q').value;" },
          ],
        }),
      );
      expect(typed.actions.javascriptReturns).toEqual([{ type: "string", value: "kettles" }]);
      // The page kept what was typed between the two requests: the click submits it.
      await json(
        await post(app, `/v1/browser/${id}/actions`, {
          actions: [
            { type: "click", selector: "#go" },
            { type: "waitForSelector", selector: "#result" },
          ],
        }),
      );
      const after = await json<FetchResult>(
        await post(app, `/v1/browser/${id}/read`, {
          formats: ["markdown", { type: "question", question: "What are the results for?" }],
        }),
      );
      expect(after.markdown).toContain(`${FORM_RESULT_PREFIX}kettles`);
      expect(after.url).toStartWith(`${site.url}/form`);

      const listed = await json<{ sessions: { id: string }[] }>(await app.request("/v1/browser"));
      expect(listed.sessions.map((s) => s.id)).toEqual([id]);

      // One session per account on this server: a second is refused until the first closes.
      const second = await post(app, "/v1/browser", {});
      expect(second.status).toBe(429);
      expect((await errorOf(second)).message).toContain("SIPHON_BROWSER_SESSIONS_PER_ACCOUNT");

      const closed = await app.request(`/v1/browser/${id}`, { method: "DELETE" });
      expect(closed.status).toBe(200);
      const gone = await post(app, `/v1/browser/${id}/read`, {});
      expect(gone.status).toBe(404);
      expect((await json<{ sessions: unknown[] }>(await app.request("/v1/browser"))).sessions).toEqual([]);
    },
    BROWSER_MS,
  );

  test(
    "a session closes after its activityTtl without a request",
    async () => {
      const { id } = await json<{ id: string }>(await post(app, "/v1/browser", { activityTtl: 1 }));
      await Bun.sleep(1_600);
      const late = await post(app, `/v1/browser/${id}/actions`, { url: `${site.url}/article` });
      expect(late.status).toBe(404);
      expect((await errorOf(late)).message).toContain("No open browser session");
    },
    BROWSER_MS,
  );

  test(
    "every step goes through the SSRF guard: a loopback page is refused",
    async () => {
      const { id } = await json<{ id: string }>(await post(guarded, "/v1/browser", {}));
      const refused = await post(guarded, `/v1/browser/${id}/actions`, { url: `${site.url}/article` });
      expect(refused.status).toBe(403);
      expect((await errorOf(refused)).type).toBe("forbidden_url");
      const script = await post(guarded, `/v1/browser/${id}/actions`, {
        actions: [
          {
            type: "executeJavascript",
            script: `return fetch(${JSON.stringify(`${site.url}/headers`)}).then(() => "reached", () => "refused");`,
          },
        ],
      });
      const made = await json<{ actions: { javascriptReturns: { value: unknown }[] } }>(script);
      expect(made.actions.javascriptReturns[0]?.value).toBe("refused");
      await guarded.request(`/v1/browser/${id}`, { method: "DELETE" });
    },
    BROWSER_MS,
  );
});

describe("siphon_browser (MCP)", () => {
  test(
    "open at a page, type in it, read it, close it: the same session across calls",
    async () => {
      const { key } = await guardedKey();
      const call = async (args: Record<string, unknown>) => {
        const result = await mcpCall(app, key, "siphon_browser", args);
        expect(result.isError).toBeFalsy();
        return result;
      };
      const opened = await call({ op: "open", url: `${site.url}/form` });
      const id = String((opened.structuredContent.session as { id: string }).id);
      const acted = await call({
        op: "act",
        session: id,
        actions: [
          { type: "type", selector: "#q", text: "mugs" },
          { type: "click", selector: "#go" },
          { type: "waitForSelector", selector: "#result" },
        ],
      });
      expect(String(acted.structuredContent.url)).toStartWith(`${site.url}/form`);
      const read = await call({ op: "read", session: id, format: "text" });
      expect(String(read.structuredContent.content)).toContain(`${FORM_RESULT_PREFIX}mugs`);
      const listed = await call({ op: "list" });
      expect((listed.structuredContent.sessions as { id: string }[]).map((s) => s.id)).toEqual([id]);
      await call({ op: "close", session: id });
      expect(((await call({ op: "list" })).structuredContent.sessions as unknown[]).length).toBe(0);
    },
    BROWSER_MS,
  );
});

describe("Firecrawl's browser sessions through the SDK", () => {
  test(
    "browser, browserExecute (node code in the page), listBrowsers, deleteBrowser; bash is refused",
    async () => {
      const fc = new Firecrawl({ apiUrl: app.listen() });
      const created = await fc.browser({ ttl: 60 });
      expect(created.success).toBe(true);
      const id = String(created.id);
      const ran = await fc.browserExecute(id, { code: "return 6 * 7;", language: "node" });
      expect(ran).toMatchObject({ success: true, result: "42", exitCode: 0 });
      const failed = await fc.browserExecute(id, { code: "throw new Error('nope')", language: "node" });
      expect(failed).toMatchObject({ exitCode: 1 });
      expect(String(failed.stderr)).toContain("nope");
      const bash = await fc.browserExecute(id, { code: "ls", language: "bash" }).catch((e) => e);
      expect(bash).toBeInstanceOf(SdkError);
      expect((bash as SdkError).status).toBe(400);
      const list = await fc.listBrowsers();
      expect(list.sessions?.map((s) => s.id)).toContain(id);
      const deleted = await fc.deleteBrowser(id);
      expect(deleted).toMatchObject({ success: true, status: "closed" });
      const missing = await fc.browserExecute(id, { code: "return 1", language: "node" }).catch((e) => e);
      expect((missing as SdkError).status).toBe(404);
    },
    BROWSER_MS,
  );

  test(
    "interact continues a scrape's page: state kept between calls, stopped with stopInteraction; an unknown scrape is 404",
    async () => {
      const fc = new Firecrawl({ apiUrl: app.listen() });
      const doc = await fc.scrape(`${site.url}/form`, { maxAge: 0 });
      const scrapeId = String(doc.metadata?.scrapeId);
      const first = await fc.interact(scrapeId, {
        code: "document.querySelector('#q').value = 'teapots'; return location.pathname;",
        language: "node",
      });
      expect(first).toMatchObject({ success: true, result: JSON.stringify("/form"), exitCode: 0 });
      const second = await fc.interact(scrapeId, { code: "return document.querySelector('#q').value;" });
      expect(second).toMatchObject({ result: JSON.stringify("teapots") });
      expect(await fc.stopInteraction(scrapeId)).toMatchObject({ success: true, status: "closed" });
      // Stopped, the next call starts again from the scraped page.
      const fresh = await fc.interact(scrapeId, { code: "return document.querySelector('#q').value;" });
      expect(fresh).toMatchObject({ result: JSON.stringify("") });
      await fc.stopInteraction(scrapeId);
      const unknown = await fc.interact("nope", { code: "return 1" }).catch((e) => e);
      expect((unknown as SdkError).status).toBe(404);
    },
    BROWSER_MS,
  );
});
