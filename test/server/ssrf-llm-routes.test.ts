import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FakeSearch, startFakeSearch } from "../helpers/fake-search.ts";
import {
  INTERNAL_SECRET,
  type InternalServer,
  REDIRECT_STATUSES,
  type RedirectKind,
  type Redirector,
  startInternalServer,
  startRedirector,
} from "../helpers/redirect-to-internal.ts";

/**
 * Every route that takes a caller's LLM base URL, with SSRF protection on and the base on an
 * allowed origin (SIPHON_SSRF_ALLOW) that redirects to an internal address: the redirect is
 * refused before any connection to the internal server, nothing it would say reaches the
 * caller, and the caller sees forbidden_url in the route's own error shape. Each of fetch's
 * redirect statuses, with an absolute and a scheme-relative Location.
 */

const LLM_KEY = "sk-ssrf-5e1d9c3b7a2f4e6d8c0bSECRET";
const SCHEMA = { type: "object", properties: { title: { type: "string" } }, required: ["title"] };
const PROMPT = "The page's title";
/** What the caller is told: their base URL, that a redirect led elsewhere, and why that was refused. */
const REFUSED =
  /^(llmApiBase|llm\.apiBase) http:\/\/127\.0\.0\.1:\d+\/r\/\d{3}\/(abs|rel)\/v1: A redirect led to http:\/\/127\.0\.0\.1:\d+: .*not a public address/;

let internal: InternalServer;
let allowed: Redirector;
let engines: FakeSearch;
let llm: FakeLlm;
let app: TestApp;
let mcpKey: string;
/** Every body, SSE stream, poll and tool result the caller received in the current test. */
let seen: string[] = [];

beforeAll(async () => {
  internal = await startInternalServer();
  allowed = startRedirector(internal.port);
  engines = startFakeSearch(allowed.origin);
  // Keyless: a redirect between origins drops the Authorization header, as it must.
  llm = await startFakeLlm({ keys: [] });
  app = await startTestApp({
    disableSsrfProtection: false,
    // The internal server's port is deliberately absent: only the redirector and the fake LLM are allowed.
    ssrfAllow: `127.0.0.1:${allowed.port},127.0.0.1:${new URL(llm.origin).port}`,
    auth: "optional",
    escalation: false,
    cacheEnabled: false,
    fetchTimeoutMs: 3000,
    duckduckgoUrl: engines.duckduckgoUrl,
  });
  mcpKey = (await app.createKey("max")).key;
});
afterAll(async () => {
  await app.close();
  await llm.stop();
  await engines.stop();
  await allowed.stop();
  await internal.stop();
});
beforeEach(() => {
  seen = [];
  internal.reset();
  allowed.reset();
  llm.requests.length = 0;
  llm.reply = () => ({});
});

async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await app.request(path, init);
  seen.push(await res.clone().text());
  return res;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  send(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Polls a job until it ends (25 ms apart, 10 s at most) and returns the last answer. */
async function until(path: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await send(path);
    expect(res.status).toBe(200);
    const poll = (await res.json()) as Record<string, unknown>;
    if (["completed", "failed", "cancelled"].includes(String(poll.status))) return poll;
    if (Date.now() > deadline) throw new Error(`${path} did not end: ${JSON.stringify(poll)}`);
    await Bun.sleep(25);
  }
}

async function started(res: Response, status: number): Promise<string> {
  const body = (await res.json()) as { success: boolean; id: string };
  expect({ status: res.status, success: body.success }).toEqual({ status, success: true });
  return body.id;
}

/** Format B: 403 forbidden_url naming the caller's base URL and the refused redirect. */
async function refusedNative(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  const error = await errorOf(res);
  expect(error.type).toBe("forbidden_url");
  expect(error.message).toMatch(REFUSED);
}

/** Firecrawl's error shape with its 403 and code forbidden_url. */
async function refusedFirecrawl(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  const body = (await res.json()) as { success: boolean; error: string; code: string };
  expect(body).toMatchObject({ success: false, code: "forbidden_url" });
  expect(body.error).toMatch(REFUSED);
}

/** A failed page inside a job's results. */
function refusedPage(page: unknown): void {
  const error = (page as { error?: { type: string; message: string } }).error;
  expect(error?.type).toBe("forbidden_url");
  expect(error?.message).toMatch(REFUSED);
}

/** An MCP tools/call over POST /mcp, as a client without the SDK sends it: the tool result. */
async function mcpCall(name: string, args: Record<string, unknown>) {
  const res = await post(
    "/mcp",
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
    { accept: "application/json, text/event-stream", authorization: `Bearer ${mcpKey}` },
  );
  expect(res.status).toBe(200);
  const text = await res.text();
  // The endpoint may answer one JSON message or an SSE stream of them; the result is the last.
  const messages = res.headers.get("content-type")?.startsWith("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)))
    : [JSON.parse(text)];
  return (messages.at(-1) as { result: { isError?: boolean; content: { text?: string }[] } }).result;
}

async function refusedTool(result: { isError?: boolean; content: { text?: string }[] }) {
  expect(result.isError).toBe(true);
  const text = result.content[0]?.text ?? "";
  expect(text).toStartWith("Error (forbidden_url): ");
  expect(text.slice("Error (forbidden_url): ".length)).toMatch(REFUSED);
}

const llmFields = (base: string) => ({ llmProvider: "openai", llmApiKey: LLM_KEY, llmApiBase: base });

interface Route {
  name: string;
  /** Sends the request with `base` as the caller's LLM base URL, follows it to its end, checks what the caller saw. */
  run(base: string): Promise<void>;
}

const ROUTES: Route[] = [
  {
    name: "POST /v1/agent",
    run: async (base) =>
      refusedNative(await post("/v1/agent", { prompt: "tide mills", llmApiKey: LLM_KEY, llmApiBase: base })),
  },
  {
    // Refused before the first event: a plain HTTP error, not a stream (the route's documented contract).
    name: "POST /v1/agent (stream)",
    run: async (base) =>
      refusedNative(
        await post("/v1/agent", { prompt: "tide mills", llmApiKey: LLM_KEY, llmApiBase: base, stream: true }),
      ),
  },
  {
    name: "POST /v1/agent/async, GET /v1/agent/:id",
    async run(base) {
      const id = await started(
        await post("/v1/agent/async", { prompt: "tide mills", llmApiKey: LLM_KEY, llmApiBase: base }),
        202,
      );
      const poll = await until(`/v1/agent/${id}`);
      expect(poll).toMatchObject({ status: "failed", creditsUsed: 0 });
      expect(String(poll.error)).toMatch(REFUSED);
    },
  },
  {
    name: "POST /v1/answer",
    run: async (base) =>
      refusedNative(await post("/v1/answer", { question: "tide mills", maxSources: 1, ...llmFields(base) })),
  },
  {
    name: "POST /v1/research",
    run: async (base) =>
      refusedNative(
        await post("/v1/research", {
          query: "tide mills",
          maxSources: 1,
          llm: { provider: "openai", apiKey: LLM_KEY, apiBase: base },
        }),
      ),
  },
  {
    name: "POST /v1/fetch with extract",
    run: async (base) =>
      refusedNative(
        await post("/v1/fetch", {
          url: allowed.page(),
          extract: { schema: SCHEMA, prompt: PROMPT },
          ...llmFields(base),
        }),
      ),
  },
  {
    name: "POST /v1/extract (url)",
    run: async (base) =>
      refusedNative(
        await post("/v1/extract", {
          url: allowed.page(),
          schema: SCHEMA,
          prompt: PROMPT,
          ...llmFields(base),
        }),
      ),
  },
  {
    name: "POST /v1/extract (urls), GET /v1/extract/:id",
    async run(base) {
      const id = await started(
        await post("/v1/extract", {
          urls: [allowed.page()],
          schema: SCHEMA,
          prompt: PROMPT,
          ...llmFields(base),
        }),
        202,
      );
      const poll = (await until(`/v1/extract/${id}`)) as { results: unknown[] };
      expect(poll).toMatchObject({ status: "failed", failed: 1, creditsUsed: 0 });
      expect(poll.results).toHaveLength(1);
      refusedPage(poll.results[0]);
    },
  },
  {
    name: "POST /v1/batch/scrape with extract",
    async run(base) {
      const id = await started(
        await post("/v1/batch/scrape", {
          urls: [allowed.page()],
          extract: { schema: SCHEMA, prompt: PROMPT },
          ...llmFields(base),
        }),
        202,
      );
      const poll = (await until(`/v1/batch/scrape/${id}`)) as { data: unknown[] };
      expect(poll).toMatchObject({ status: "failed", failed: 1 });
      expect(poll.data).toHaveLength(1);
      refusedPage(poll.data[0]);
    },
  },
  {
    name: "POST /v1/crawl with scrapeOptions.extract",
    async run(base) {
      const id = await started(
        await post("/v1/crawl", {
          url: allowed.page(),
          maxDepth: 0,
          ignoreSitemap: true,
          scrapeOptions: { extract: { schema: SCHEMA, prompt: PROMPT }, ...llmFields(base) },
        }),
        202,
      );
      const poll = (await until(`/v1/crawl/${id}`)) as { data: unknown[] };
      expect(poll).toMatchObject({ status: "failed", failed: 1 });
      expect(poll.data).toHaveLength(1);
      refusedPage(poll.data[0]);
    },
  },
  {
    name: "POST /v2/scrape with a json format (Firecrawl)",
    run: async (base) =>
      refusedFirecrawl(
        await post("/v2/scrape", {
          url: allowed.page(),
          formats: [{ type: "json", schema: SCHEMA, prompt: PROMPT }],
          ...llmFields(base),
        }),
      ),
  },
  {
    name: "POST /v1/scrape with the summary format (Firecrawl)",
    run: async (base) =>
      refusedFirecrawl(
        await post("/v1/scrape", { url: allowed.page(), formats: ["summary"], ...llmFields(base) }),
      ),
  },
  {
    name: "POST /v2/extract, GET /v2/extract/:id (Firecrawl)",
    async run(base) {
      const id = await started(
        await post("/v2/extract", {
          urls: [allowed.page()],
          schema: SCHEMA,
          prompt: PROMPT,
          ...llmFields(base),
        }),
        200,
      );
      const poll = await until(`/v2/extract/${id}`);
      expect(poll).toMatchObject({ success: true, status: "failed", creditsUsed: 0 });
      expect(poll.data).toBeUndefined();
    },
  },
  {
    name: "POST /v2/agent, GET /v2/agent/:id (Firecrawl)",
    async run(base) {
      const id = await started(await post("/v2/agent", { prompt: "tide mills", ...llmFields(base) }), 200);
      const poll = await until(`/v2/agent/${id}`);
      expect(poll).toMatchObject({ success: true, status: "failed", creditsUsed: 0 });
      expect(String(poll.error)).toMatch(REFUSED);
    },
  },
  {
    name: "MCP siphon_extract",
    run: async (base) =>
      refusedTool(
        await mcpCall("siphon_extract", {
          url: allowed.page(),
          schema: SCHEMA,
          prompt: PROMPT,
          ...llmFields(base),
        }),
      ),
  },
  {
    name: "MCP siphon_agent",
    run: async (base) =>
      refusedTool(
        await mcpCall("siphon_agent", { prompt: "tide mills", llmApiKey: LLM_KEY, llmApiBase: base }),
      ),
  },
];

const KINDS: RedirectKind[] = ["abs", "rel"];

describe("an llmApiBase on an allowed origin that redirects to an internal address", () => {
  for (const route of ROUTES) {
    describe(route.name, () => {
      for (const kind of KINDS) {
        for (const status of REDIRECT_STATUSES) {
          test(`${status} (${kind === "abs" ? "absolute" : "scheme-relative"} Location): refused, nothing leaks`, async () => {
            // What the caller saw is checked after the leak checks, so a leak is what a failure names.
            const outcome = await route.run(allowed.base(status, kind)).catch((error: unknown) => error);
            // The internal server was never connected to...
            expect({ connections: internal.connections(), requests: internal.requests }).toEqual({
              connections: 0,
              requests: [],
            });
            for (const body of seen) {
              expect(body).not.toContain(INTERNAL_SECRET);
              expect(body).not.toContain(LLM_KEY);
            }
            // ...though the route did call the LLM: the allowed origin answered the redirect.
            expect(allowed.redirects()).toBeGreaterThanOrEqual(1);
            if (outcome !== undefined) throw outcome;
            expect((await app.request("/health")).status).toBe(200);
          });
        }
      }
    });
  }

  // Firecrawl's extract poll names each failed page with its reason, so the caller learns that
  // their llmApiBase redirected to a refused address (as the native poll and every synchronous
  // route say). That no leak happens on this route is held by the matrix above.
  test("POST /v2/extract: the failed poll says the llmApiBase's redirect was refused", async () => {
    const id = await started(
      await post("/v2/extract", {
        urls: [allowed.page()],
        schema: SCHEMA,
        prompt: PROMPT,
        ...llmFields(allowed.base(303, "abs")),
      }),
      200,
    );
    const poll = await until(`/v2/extract/${id}`);
    expect(poll.status).toBe("failed");
    expect(`${poll.error ?? ""}\n${poll.warning ?? ""}`).toMatch(
      /A redirect led to http:\/\/127\.0\.0\.1:\d+/,
    );
  });

  test("the server logged nothing the internal server said", () => {
    for (const line of app.logs) expect(line).not.toContain(INTERNAL_SECRET);
  });
});

describe("controls: the same set-up reaches an allowed LLM", () => {
  test("llmApiBase straight at the fake LLM on an allowed origin: 200 with the model's data", async () => {
    llm.reply = () => ({ json: { title: "From the model" } });
    const res = await post("/v1/extract", {
      url: allowed.page(),
      schema: SCHEMA,
      prompt: PROMPT,
      ...llmFields(llm.baseUrl("openai")),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      method: "llm",
      data: { title: "From the model" },
    });
    expect(llm.requests).toHaveLength(1);
  });

  for (const status of [307, 308]) {
    test(`a ${status} from one allowed origin to another is followed, with the POST and its body`, async () => {
      llm.reply = () => ({ json: { title: "Via a redirect" } });
      const res = await post("/v1/extract", {
        url: allowed.page(),
        schema: SCHEMA,
        prompt: PROMPT,
        ...llmFields(allowed.baseTo(status, llm.baseUrl("openai"))),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, data: { title: "Via a redirect" } });
      expect(llm.requests.map((r) => [r.method, r.path])).toEqual([["POST", "/openai/v1/chat/completions"]]);
      expect(llm.requests[0]?.body?.response_format).toBeDefined();
      // The caller's key stays with the origin it was given for.
      expect(llm.requests[0]?.authorization).toBeNull();
      expect(internal.connections()).toBe(0);
    });
  }
});
