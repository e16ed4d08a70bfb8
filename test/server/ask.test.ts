import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { AskResponse } from "../../src/schemas/ask.ts";
import { errorOf, startTestApp, type TestApp, TestClock } from "../helpers/app.ts";
import { BRAVE_KEY, type FakeSearch, startFakeSearch } from "../helpers/fake-search.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import {
  KNOWLEDGE_MISSES,
  KNOWLEDGE_PAGES,
  KNOWLEDGE_QUESTIONS,
  KNOWLEDGE_RESULTS,
} from "../helpers/site-pages/knowledge.ts";

let site: FixtureSite;
let engines: FakeSearch;
let app: TestApp;
/** The knowledge pages' dates are fixed; the clock is too, so freshness does not change as years pass. */
const clock = new TestClock(Date.UTC(2026, 10, 18, 12, 0, 0));

beforeAll(async () => {
  site = await startFixtureSite();
  engines = startFakeSearch(site.url);
  // Escalation off: the knowledge pages are plain pages, and no test here should start Chromium.
  app = await startTestApp(
    {
      duckduckgoUrl: engines.duckduckgoUrl,
      braveUrl: engines.braveUrl,
      searxngUrl: engines.searxngUrl,
      escalation: false,
      fetchTimeoutMs: 3000,
    },
    clock,
  );
});
afterAll(async () => {
  await app.close();
  await engines.stop();
  await site.stop();
});
beforeEach(() => {
  engines.clear();
  engines.results = KNOWLEDGE_RESULTS;
});

/** Every response body and header this file saw, to check the search key never shows in one. */
const seen: string[] = [];

async function record(res: Response): Promise<Response> {
  seen.push(await res.clone().text(), JSON.stringify([...res.headers]));
  return res;
}

function post(body: unknown, headers: Record<string, string> = {}, on = app) {
  return on
    .request("/v1/ask", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    })
    .then(record);
}

function get(params: Record<string, string>, headers: Record<string, string> = {}, on = app) {
  return on.request(`/v1/ask?${new URLSearchParams(params)}`, { headers }).then(record);
}

async function ok(res: Response): Promise<AskResponse> {
  const body = (await res.json()) as AskResponse;
  expect(res.status).toBe(200);
  expect(Value.Errors(AskResponse, body).First()).toBeUndefined();
  return body;
}

async function failed(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  const error = await errorOf(res);
  expect(error.type).toBe(type);
  return error;
}

const urlOf = (path: string) => `${site.url}${path}`;

describe(`ask ranks the passage that answers the question first (${KNOWLEDGE_QUESTIONS.length} questions)`, () => {
  test.each(KNOWLEDGE_QUESTIONS.map((q) => [q.question, q.answer]))("%s", async (question, answer) => {
    const body = await ok(await post({ question, sources: 5 }));
    expect(body.answer).toContain(answer);
    // The answer is the first source's best passage.
    expect(body.sources[0]?.snippet.slice(0, 200)).toBe(body.answer?.slice(0, 200) ?? "");
  });

  // What BM25 cannot do (synonyms, a distractor with more of the question's words): each asserts
  // the right answer and fails today. When one passes, ranking learned it: move it to KNOWLEDGE_QUESTIONS.
  for (const miss of KNOWLEDGE_MISSES) {
    test.failing(`not yet: ${miss.question} (${miss.why})`, async () => {
      const body = await ok(await post({ question: miss.question, sources: 5 }));
      expect(body.answer).toContain(miss.answer);
    });
  }

  test("confidence tells right answers from wrong ones on the whole set", async () => {
    const all = [...KNOWLEDGE_QUESTIONS, ...KNOWLEDGE_MISSES];
    const results = await Promise.all(
      all.map(async ({ question, answer }) => {
        const body = await ok(await post({ question, sources: 5 }));
        return { right: body.answer?.includes(answer) ?? false, confidence: body.confidence };
      }),
    );
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const right = results.filter((r) => r.right).map((r) => r.confidence);
    const wrong = results.filter((r) => !r.right).map((r) => r.confidence);
    expect(wrong.length).toBe(KNOWLEDGE_MISSES.length);
    expect(mean(right)).toBeGreaterThan(mean(wrong));
    // Above 0.55 every answer of the set is right.
    expect(Math.max(...wrong)).toBeLessThan(0.55);
    expect(right.filter((c) => c >= 0.55).length).toBeGreaterThanOrEqual(right.length / 2);
  });
});

describe("GET and POST /v1/ask", () => {
  test("the Ask response: answer, confidence, every fetched source with authority and freshness", async () => {
    const body = await ok(
      await post({ question: "  when did the first tidal power station open?  ", sources: 5 }),
    );
    expect(body.success).toBe(true);
    expect(body.question).toBe("when did the first tidal power station open?");
    expect(body.method).toBe("bm25");
    expect(Number.isInteger(body.elapsed)).toBe(true);
    expect(body.answer).toStartWith("The first tidal power station of any size was built across the estuary");
    expect(body.confidence).toBeGreaterThan(0);
    expect(body.confidence).toBeLessThanOrEqual(1);
    expect(body.sources[0]?.url).toBe(urlOf("/knowledge/tidal-power"));
    // Every page the search found, once, each with its own date's freshness (the fixture site is general).
    const byUrl = Object.fromEntries(body.sources.map((s) => [s.url, s]));
    expect(Object.keys(byUrl).sort()).toEqual(KNOWLEDGE_PAGES.map((p) => urlOf(p.path)).sort());
    const trait = (path: string) => {
      const source = byUrl[urlOf(path)];
      return [source?.authority, source?.freshness];
    };
    expect(trait("/knowledge/tidal-power")).toEqual(["general", "recent"]);
    expect(trait("/knowledge/tides")).toEqual(["general", "this-month"]);
    expect(trait("/knowledge/millstones")).toEqual(["general", "this-year"]);
    expect(trait("/knowledge/tide-mills")).toEqual(["general", "older"]);
    expect(trait("/knowledge/water-wheels")).toEqual(["general", "older"]);
    // Best first; a snippet is about 300 characters of the page's best passage.
    const confidences = body.sources.map((s) => s.confidence);
    expect(confidences[0]).toBe(body.confidence);
    for (const s of body.sources) expect(s.snippet.length).toBeLessThanOrEqual(301);
    expect(byUrl[urlOf("/knowledge/tidal-power")]?.title).toBe(
      "Tidal power stations: where the tide makes electricity",
    );
  });

  test("GET takes q and answers as POST does", async () => {
    const question = "where are the highest tides on earth";
    const viaGet = await ok(await get({ q: question, sources: "5" }));
    const viaPost = await ok(await post({ question, sources: 5 }));
    expect({ ...viaGet, elapsed: 0 }).toEqual({ ...viaPost, elapsed: 0 });
    expect(viaGet.answer).toContain("In the Bay of Fundy");
  });

  test("sources is how many search results are fetched: 3 by default, 1 to 5", async () => {
    const three = await ok(await get({ q: "why are there two high tides every day?" }));
    expect(three.sources.map((s) => s.url)).toHaveLength(3);
    for (const path of ["/knowledge/tide-mills", "/knowledge/water-wheels", "/knowledge/tidal-power"]) {
      expect(three.sources.map((s) => s.url)).toContain(urlOf(path));
    }
    const one = await ok(await post({ question: "what wheel does a tide mill use", sources: 1 }));
    expect(one.sources).toHaveLength(1);
    expect(one.answer).toContain("Tide mills therefore used undershot or low breastshot wheels");
  });

  test("no passage with the question's words: answer null, confidence 0, the sources still listed", async () => {
    const body = await ok(await post({ question: "quantum chromodynamics gluon", sources: 2 }));
    expect(body.answer).toBeNull();
    expect(body.confidence).toBe(0);
    expect(body.sources.map((s) => [s.url, s.confidence, s.snippet])).toEqual(
      KNOWLEDGE_RESULTS.slice(0, 2).map((r) => [urlOf(r.path), 0, `${r.snippet} & more about quantum.`]),
    );
  });

  // gatherSources (src/answer/sources.ts) still throws answer_failed when the search finds
  // nothing, though its commit says it returns no sources; make this a plain test once it does.
  test("a search that finds nothing: answer null, no sources (not an error)", async () => {
    const body = await ok(await post({ question: "tide mills nothing" }));
    expect(body).toMatchObject({ answer: null, confidence: 0, sources: [] });
  });

  test("the provider and its key: brave with the key in the header, never echoed", async () => {
    const res = await post(
      { question: "what kind of stone made the best millstones?", provider: "brave", sources: 5 },
      { "x-search-api-key": BRAVE_KEY },
    );
    const body = await ok(res);
    expect(res.headers.get("x-search-provider")).toBe("brave");
    expect(body.answer).toContain("Millers prized French burr");
    expect(engines.of("brave")[0]?.headers["x-subscription-token"]).toBe(BRAVE_KEY);
    const viaGet = await get(
      { q: "what causes tides?", provider: "searxng", sources: "5" },
      { "x-search-api-key": BRAVE_KEY },
    );
    expect((await ok(viaGet)).answer).toContain("Tides are caused mainly by the gravity of the Moon");
    expect(viaGet.headers.get("x-search-provider")).toBe("searxng");
    for (const text of seen) expect(text).not.toContain(BRAVE_KEY);
  });
});

describe("errors", () => {
  test.each([
    ["no question", {}, "question is required"],
    ["an empty question", { question: "" }, "question must not be empty"],
    ["a blank question", { question: "   " }, "question must not be empty"],
    ["a question too long", { question: "a".repeat(2001) }, "question must be at most 2000 characters"],
    ["sources 0", { question: "tides", sources: 0 }, "sources must be an integer from 1 to 5"],
    ["sources 6", { question: "tides", sources: 6 }, "sources must be an integer from 1 to 5"],
    ["sources 2.5", { question: "tides", sources: 2.5 }, "sources must be an integer from 1 to 5"],
    [
      "an unknown provider",
      { question: "tides", provider: "bing" },
      "provider must be one of duckduckgo, brave, searxng",
    ],
    [
      "an unknown field",
      { question: "tides", count: 3 },
      'unknown field "count"; check the spelling against the API reference',
    ],
    ["a body that is not an object", ["tides"], "The request body must be a JSON object"],
  ])("POST with %s is a 400 naming the field", async (_, body, message) => {
    const error = await failed(await post(body), 400, "invalid_request");
    expect(error.message).toBe(message);
  });

  test.each([
    ["no q", {}, "q is required"],
    ["q too long", { q: "a".repeat(2001) }, "q must be at most 2000 characters"],
    ["sources abc", { q: "tides", sources: "abc" }, "sources must be an integer from 1 to 5"],
    ["sources 9", { q: "tides", sources: "9" }, "sources must be an integer from 1 to 5"],
    [
      "question instead of q",
      { question: "tides" },
      'unknown field "question"; GET /v1/ask takes the question as q',
    ],
  ])("GET with %s is a 400 naming the parameter", async (_, params, message) => {
    const error = await failed(await get(params), 400, "invalid_request");
    expect(error.message).toBe(message);
  });

  test("a search that fails is a 500 search_failed saying why", async () => {
    const error = await failed(await post({ question: "tide mill captcha" }), 500, "search_failed");
    expect(error.message).toStartWith("DuckDuckGo rate-limited siphon");
    const brave = await failed(
      await post({ question: "tides", provider: "brave" }, { "x-search-api-key": "nope-1234" }),
      500,
      "search_failed",
    );
    expect(brave.message).toContain("Brave Search refused the key");
  });
});

test("credits: one per search plus one per page fetched; cache hits and failures cost nothing", async () => {
  // A fresh server, so no page is in its cache yet.
  const fresh = await startTestApp({ duckduckgoUrl: engines.duckduckgoUrl, escalation: false }, clock);
  try {
    const auth = { authorization: `Bearer ${(await fresh.createKey("pro")).key}` };
    const first = await post({ question: "what causes tides?", sources: 3 }, auth, fresh);
    await ok(first);
    expect(first.headers.get("x-credits-used")).toBe("4");
    // The same pages again: all from the cache.
    const again = await get({ q: "why are there two high tides every day?", sources: "3" }, auth, fresh);
    await ok(again);
    expect(again.headers.get("x-credits-used")).toBe("1");
    // A page that fails is not fetched: only the search and the other page cost.
    const broken = await post({ question: "tides broken", sources: 2 }, auth, fresh);
    expect((await ok(broken)).sources.map((s) => s.url)).toContain("http://127.0.0.1:1/unreachable");
    expect(broken.headers.get("x-credits-used")).toBe("1");
    expect(broken.headers.get("x-weekly-used")).toBe("6");
    // A failed search costs nothing.
    const captcha = await post({ question: "tides captcha" }, auth, fresh);
    expect(captcha.status).toBe(500);
    expect(captcha.headers.get("x-credits-used")).toBe("0");
  } finally {
    await fresh.close();
  }
});

test("OpenAPI documents GET and POST /v1/ask with the Ask response", async () => {
  interface Operation {
    parameters?: { name: string; in: string }[];
    requestBody?: { content: Record<string, { schema: { properties: object } }> };
    responses: Record<string, { content?: Record<string, { schema: { properties: object } }> }>;
  }
  const doc = (await (await app.request("/docs/json")).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const path = doc.paths["/v1/ask"] ?? {};
  for (const method of ["get", "post"]) {
    const properties = path[method]?.responses["200"]?.content?.["application/json"]?.schema.properties ?? {};
    expect(Object.keys(properties).sort()).toEqual(
      ["answer", "confidence", "elapsed", "method", "question", "sources", "success"].sort(),
    );
    const sources = JSON.stringify((properties as Record<string, unknown>).sources);
    expect(sources).toContain('"this-month"');
    expect(sources).toContain('"institutional"');
  }
  const parameters = (path.get?.parameters ?? []).map((p) => `${p.in}:${p.name}`);
  expect(parameters).toEqual([
    "query:q",
    "query:sources",
    "query:provider",
    "query:searchApiKey",
    "header:x-search-api-key",
  ]);
  const body = path.post?.requestBody?.content["application/json"]?.schema.properties ?? {};
  expect(Object.keys(body)).toEqual(["question", "sources", "provider", "searchApiKey"]);
});
