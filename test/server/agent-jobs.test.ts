import { Database } from "bun:sqlite";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { join } from "node:path";
import { weekStart } from "../../src/auth/week.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";

const KEY = "sk-agentjob-4c1d9e7f2a6b8c0d3e5fSECRET";
const ANSWER = "The council approved the solar farm [1].";

let site: FixtureSite;
let llm: FakeLlm;
let app: TestApp;
let auth: { authorization: string };
let accountId: string;

const llmConfig = () => ({
  openaiBaseUrl: llm.baseUrl("openai"),
  escalation: false,
  fetchTimeoutMs: 3000,
  webhookBaseDelayMs: 10,
  auth: "required",
});

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [KEY], keyEcho: "full" });
  app = await startTestApp(llmConfig());
  const made = await app.createKey("pro");
  auth = { authorization: `Bearer ${made.key}` };
  accountId = made.accountId;
});
afterAll(async () => {
  await app.close();
  await llm.stop();
  await site.stop();
});
beforeEach(() => {
  llm.requests.length = 0;
  llm.reply = () => ({ text: ANSWER });
});

/** Every body this file read from the server, to check the key never shows in one. */
const seen: string[] = [];

type Poll = Record<string, unknown> & { status: string; creditsUsed: number; expiresAt: string | null };

const body = (extra: Record<string, unknown> = {}) => ({
  prompt: "What did the city council approve?",
  llmApiKey: KEY,
  urls: [`${site.url}/article`],
  ...extra,
});

async function read(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  seen.push(text);
  return JSON.parse(text);
}

async function start(extra: Record<string, unknown> = {}, on = app, headers = auth): Promise<string> {
  const res = await on.request("/v1/agent/async", {
    method: "POST",
    headers,
    body: JSON.stringify(body(extra)),
  });
  const started = await read(res);
  expect(res.status).toBe(202);
  expect(started).toEqual({
    success: true,
    id: expect.stringMatching(/^job_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    url: `http://localhost/v1/agent/${started.id}`,
  });
  return started.id as string;
}

async function poll(id: string, on = app, headers = auth): Promise<Poll> {
  const res = await on.request(`/v1/agent/${id}`, { headers });
  expect(res.status).toBe(200);
  return (await read(res)) as Poll;
}

async function until(
  id: string,
  done = (p: Poll) => ["completed", "failed", "cancelled"].includes(p.status),
) {
  for (let i = 0; i < 300; i++) {
    const p = await poll(id);
    if (done(p)) return p;
    await Bun.sleep(20);
  }
  throw new Error(`${id} did not finish`);
}

/** The job's row as SQLite holds it, read through a connection of its own. */
function storedRow(on: TestApp, id: string): { input: string; result: string | null } {
  const db = new Database(join(on.home, "siphon.db"), { readonly: true });
  try {
    return db.prepare("SELECT input, result FROM jobs WHERE id = ?1").get(id) as {
      input: string;
      result: string | null;
    };
  } finally {
    db.close();
  }
}

describe("async agent jobs", () => {
  test("202, then the poll follows the job to the Agent response; credits charged; listed as agent", async () => {
    const credits = await app.store.usage.weeklyCredits(accountId, weekStart(Date.now()));
    const id = await start();
    const done = await until(id);
    expect(done).toMatchObject({
      success: true,
      id,
      status: "completed",
      answer: expect.stringContaining("solar farm"),
      sources: [`${site.url}/article`],
      sourcesDetailed: [{ url: `${site.url}/article`, title: expect.any(String) }],
      pagesVisited: 1,
      creditsUsed: 1,
      tokensUsed: { input: expect.any(Number), output: expect.any(Number) },
      data: expect.any(Object),
    });
    expect(done.success).toBe(true);
    expect(Date.parse(done.expiresAt ?? "")).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // The job called the model with the caller's key, and charged the page to the account.
    expect(llm.requests.length).toBeGreaterThan(0);
    for (const r of llm.requests) expect(r.authorization).toBe(`Bearer ${KEY}`);
    expect(await app.store.usage.weeklyCredits(accountId, weekStart(Date.now()))).toBe(credits + 1);

    const list = await read(await app.request("/v1/jobs?type=agent", { headers: auth }));
    expect(list.jobs).toContainEqual(
      expect.objectContaining({ id, type: "agent", status: "completed", progress: 100, creditsUsed: 1 }),
    );
    const crawls = await read(await app.request("/v1/jobs?type=crawl", { headers: auth }));
    expect(crawls.jobs).toEqual([]);

    // Once ended, the stored job keeps the prompt and the result but not the key.
    const row = storedRow(app, id);
    expect(JSON.parse(row.input)).toMatchObject({ prompt: body().prompt, urls: body().urls });
    expect(row.input).not.toContain(KEY);
    expect(JSON.parse(row.result ?? "null")).toMatchObject({ answer: done.answer });
  });

  test("webhooks: started and completed (with the result) arrive signed; a failed job sends failed", async () => {
    const received: { body: string; signature: string | null }[] = [];
    const receiver = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        received.push({ body: await req.text(), signature: req.headers.get("x-siphon-signature") });
        return new Response("ok");
      },
    });
    const arrived = async (n: number) => {
      for (let i = 0; i < 200 && received.length < n; i++) await Bun.sleep(10);
      return received.map((r) => JSON.parse(r.body));
    };
    try {
      const webhook = {
        url: `http://127.0.0.1:${receiver.port}/hook`,
        secret: "wh-secret",
        metadata: { n: 3 },
      };
      const id = await start({ webhook });
      await until(id);
      const events = await arrived(2);
      expect(events.map((e) => e.event)).toEqual(["started", "completed"]);
      expect(events[0]).toMatchObject({ data: { jobId: id, type: "agent" }, metadata: { n: 3 } });
      expect(events[1]).toMatchObject({
        data: { jobId: id, total: 1, completed: 1, result: { answer: expect.stringContaining("solar") } },
      });
      for (const r of received) {
        expect(r.signature).toBe(`sha256=${createHmac("sha256", "wh-secret").update(r.body).digest("hex")}`);
        expect(r.body).not.toContain(KEY);
      }

      // A key the vendor refuses, which it echoes in full: the job fails without showing it.
      received.length = 0;
      const badKey = `${KEY}-revoked`;
      const failedId = await start({ webhook, llmApiKey: badKey });
      const failed = await until(failedId);
      expect(failed.status).toBe("failed");
      expect(String(failed.error)).toMatch(/key/i);
      expect(JSON.stringify(failed)).not.toContain(badKey);
      const [, end] = await arrived(2);
      expect(end).toMatchObject({ event: "failed", data: { jobId: failedId, error: failed.error } });
      for (const r of received) expect(r.body).not.toContain(badKey.slice(3, 20));
      expect(storedRow(app, failedId).input).not.toContain(badKey);
    } finally {
      receiver.stop(true);
    }
  });

  test("DELETE cancels a running job, aborts its model call and erases the key; a second DELETE keeps cancelled", async () => {
    llm.reply = () => ({ text: ANSWER, delayMs: 10_000 });
    const id = await start();
    await until(id, (p) => p.status === "processing");
    for (let i = 0; i < 200 && llm.requests.length === 0; i++) await Bun.sleep(10);
    const res = await app.request(`/v1/agent/${id}`, { method: "DELETE", headers: auth });
    expect(res.status).toBe(200);
    expect(await read(res)).toEqual({ success: true, status: "cancelled" });
    expect((await llm.waitForClientClose(3000)).closedByClient).toBe(true);
    const after = await poll(id);
    expect(after).toMatchObject({ status: "cancelled", creditsUsed: 0 });
    expect(after.answer).toBeUndefined();
    expect(storedRow(app, id).input).not.toContain(KEY);
    const again = await app.request(`/v1/agent/${id}`, { method: "DELETE", headers: auth });
    expect(await read(again)).toEqual({ success: true, status: "cancelled" });
  });

  test("404 for an unknown job, another account's, a crawl id, and once the 24 h are over", async () => {
    const clock = new TestClock(Date.now());
    const timed = await startTestApp(llmConfig(), clock);
    try {
      const mine = { authorization: `Bearer ${(await timed.createKey("pro")).key}` };
      const theirs = { authorization: `Bearer ${(await timed.createKey("pro")).key}` };
      const id = await start({}, timed, mine);
      for (let i = 0; i < 300; i++) {
        if ((await poll(id, timed, mine)).status === "completed") break;
        await Bun.sleep(20);
      }
      const status = async (path: string, headers: Record<string, string>, method = "GET") =>
        (await timed.request(path, { method, headers })).status;
      expect(await status(`/v1/agent/${id}`, theirs)).toBe(404);
      expect(await status(`/v1/agent/${id}`, theirs, "DELETE")).toBe(404);
      expect(await status("/v1/agent/job_00000000-0000-0000-0000-000000000000", mine)).toBe(404);
      const crawl = await timed.request("/v1/crawl", {
        method: "POST",
        headers: mine,
        body: JSON.stringify({ url: `${site.url}/article`, maxDepth: 0, ignoreSitemap: true }),
      });
      expect(await status(`/v1/agent/${((await crawl.json()) as { id: string }).id}`, mine)).toBe(404);
      expect((await errorOf(await timed.request(`/v1/agent/${id}`, { headers: theirs }))).type).toBe(
        "not_found",
      );
      clock.advance(86_400_000 - 1000);
      expect(await status(`/v1/agent/${id}`, mine)).toBe(200);
      clock.advance(2000);
      expect(await status(`/v1/agent/${id}`, mine)).toBe(404);
    } finally {
      await timed.close();
    }
  });

  test("a bad body, output schema or webhook target is refused before any job exists", async () => {
    const guarded = await startTestApp({ ...llmConfig(), disableSsrfProtection: false });
    try {
      const headers = { authorization: `Bearer ${(await guarded.createKey("pro")).key}` };
      const submit = (b: unknown) =>
        guarded.request("/v1/agent/async", { method: "POST", headers, body: JSON.stringify(b) });
      const missing = await submit({ llmApiKey: KEY });
      expect(missing.status).toBe(400);
      expect((await errorOf(missing)).message).toContain("prompt");
      const schema = await submit(body({ outputSchema: { type: "object", properties: { a: { type: 7 } } } }));
      expect(schema.status).toBe(400);
      const plain = await submit(body({ webhook: { url: "http://hooks.example.com/x" } }));
      expect((await errorOf(plain)).message).toContain("https");
      const internal = await submit(body({ webhook: { url: "https://127.0.0.1/x" } }));
      expect(internal.status).toBe(403);
      const listed = (await (await guarded.request("/v1/jobs", { headers })).json()) as { jobs: unknown[] };
      expect(listed.jobs).toEqual([]);
      expect(llm.requests).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  test("the OpenAPI document describes the three routes", async () => {
    const doc = (await (await app.request("/docs/json")).json()) as {
      paths: Record<string, Record<string, { summary?: string; requestBody?: unknown }>>;
    };
    expect(doc.paths["/v1/agent/async"]?.post?.requestBody).toBeDefined();
    expect(doc.paths["/v1/agent/{id}"]?.get?.summary).toContain("Poll");
    expect(doc.paths["/v1/agent/{id}"]?.delete?.summary).toContain("Cancel");
  });

  test("no poll, list or answer of this file showed the key", () => {
    expect(seen.length).toBeGreaterThan(5);
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});
