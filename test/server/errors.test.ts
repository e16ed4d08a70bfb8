import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ requestBodyLimit: 64 * 1024 });
});
afterAll(() => app.close());

const post = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  app.request("/v1/fetch", { method: "POST", body, headers });

describe("health and routing", () => {
  test("GET /health answers SPEC fields with a request id", async () => {
    const res = await app.request("/health");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.status).toBe("ok");
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof body.uptime).toBe("number");
    expect(new Date(String(body.timestamp)).toISOString()).toBe(String(body.timestamp));
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("an unknown route is 404 not_found in format B, request id in body and header", async () => {
    const res = await app.request("/v1/nope");
    expect(res.status).toBe(404);
    const error = await errorOf(res);
    expect(error.type).toBe("not_found");
    expect(error.requestId).toBe(res.headers.get("x-request-id") ?? "missing");
  });

  test("the OpenAPI document describes GET and POST /v1/fetch from the shared schemas", async () => {
    const res = await app.request("/docs/json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const fetchPath = doc.paths["/v1/fetch"] ?? {};
    const parameters = (fetchPath.get?.parameters ?? []) as { name: string }[];
    const names = parameters.map((p) => p.name);
    expect(names).toContain("onlyMainContent");
    const body = fetchPath.post?.requestBody as {
      content: Record<string, { schema: { properties: object } }>;
    };
    expect(Object.keys(body.content["application/json"]?.schema.properties ?? {})).toContain("excludeTags");
  });
});

describe("bad input is a clear format-B 4xx", () => {
  const cases: [string, string, number, string, RegExp][] = [
    ["missing url", "/v1/fetch", 400, "invalid_request", /url is required/],
    ["unparseable url", "/v1/fetch?url=not%20a%20url", 400, "invalid_url", /./],
    ["missing scheme", "/v1/fetch?url=example.com/page", 400, "invalid_url", /./],
    ["fragment", "/v1/fetch?url=https://example.com/a%23b", 400, "invalid_url", /#|fragment/i],
    ["too long", `/v1/fetch?url=https://example.com/${"a".repeat(2100)}`, 400, "invalid_url", /2048/],
    [
      "bad format",
      "/v1/fetch?url=https://example.com&format=pdf",
      400,
      "invalid_request",
      /format must be one of/,
    ],
    [
      "bad wait",
      "/v1/fetch?url=https://example.com&wait=soon",
      400,
      "invalid_request",
      /wait must be an integer/,
    ],
    ["wait too big", "/v1/fetch?url=https://example.com&wait=60001", 400, "invalid_request", /0 to 60000/],
    [
      "bad boolean",
      "/v1/fetch?url=https://example.com&images=maybe",
      400,
      "invalid_request",
      /images must be true or false/,
    ],
    ["bad maxAge", "/v1/fetch?url=https://example.com&maxAge=-1", 400, "invalid_request", /maxAge/],
    [
      "bad location",
      "/v1/fetch?url=https://example.com&location=Germany",
      400,
      "invalid_request",
      /location/,
    ],
    [
      "unknown action type",
      `/v1/fetch?url=https://example.com&actions=${encodeURIComponent('[{"type":"wait","ms":5},{"type":"dance"}]')}`,
      400,
      "invalid_request",
      /actions/,
    ],
    [
      "actions not JSON",
      "/v1/fetch?url=https://example.com&actions=click",
      400,
      "invalid_request",
      /actions must be an array/,
    ],
  ];
  for (const [name, path, status, type, message] of cases) {
    test(`GET ${name}`, async () => {
      const res = await app.request(path);
      expect(res.status).toBe(status);
      const error = await errorOf(res);
      expect(error.type).toBe(type);
      expect(error.message).toMatch(message);
    });
  }

  test("malformed JSON says so", async () => {
    const res = await post('{"url": "https://example.com",');
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.type).toBe("invalid_request");
    expect(error.message).toMatch(/Malformed JSON/);
  });

  test("a body over the limit is 413 payload_too_large", async () => {
    const res = await post(JSON.stringify({ url: "https://example.com", pad: "x".repeat(70 * 1024) }));
    expect(res.status).toBe(413);
    expect((await errorOf(res)).type).toBe("payload_too_large");
  });

  test("an unknown field is named", async () => {
    const res = await post(JSON.stringify({ url: "https://example.com", onlyMainContnet: true }));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/unknown field "onlyMainContnet"/);
  });

  test("a JSON array or an empty body is refused", async () => {
    for (const body of ["[1,2]", "", "null", '"https://example.com"']) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).type).toBe("invalid_request");
    }
  });

  test("wrong types in the body name the field", async () => {
    const res = await post(JSON.stringify({ url: "https://example.com", includeTags: "article" }));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/includeTags must be an array/);
  });

  test("an action missing its selector is refused before any browser work, naming its index", async () => {
    const actions = [{ type: "wait", ms: 10 }, { type: "click" }];
    const res = await post(JSON.stringify({ url: "https://example.com", actions }));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/actions\[1\]: click needs a non-empty "selector"/);
  });

  test("formats: json needs a schema or a prompt, unknown entries are named", async () => {
    const json = await post(JSON.stringify({ url: "https://example.com", formats: ["markdown", "json"] }));
    expect(json.status).toBe(400);
    expect((await errorOf(json)).message).toMatch(/json format needs a schema or a prompt/);
    const odd = await post(JSON.stringify({ url: "https://example.com", formats: ["product"] }));
    expect((await errorOf(odd)).message).toMatch(/formats\[0\]: "product" is not supported/);
  });

  test("screenshot bounds are enforced", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ width: 99 }, /width must be an integer from 100 to 5000/],
      [{ height: 5001 }, /height must be an integer from 100 to 5000/],
      [{ format: "gif" }, /format must be one of png, jpeg, jpg/],
      [{ format: "jpeg", quality: 0 }, /quality must be an integer from 1 to 100/],
      [{ waitFor: 60_001 }, /waitFor must be an integer from 0 to 60000/],
      [{ cookies: ["novalue"] }, /cookies/],
      [{ quality: 50 }, /quality applies to JPEG only/],
    ];
    for (const [extra, message] of cases) {
      const res = await app.request("/v1/screenshot", {
        method: "POST",
        body: JSON.stringify({ url: "https://example.com", ...extra }),
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(message);
    }
  });

  test("an extraction that cannot run is refused before the fetch, not ignored", async () => {
    const res = await post(JSON.stringify({ url: "https://example.com", extract: { prompt: "x" } }));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/A prompt needs an LLM/);
  });

  test("repeated query parameters never cause a 5xx", async () => {
    const res = await app.request("/v1/fetch?url=notaurl&url=alsonot&format=text&format=pdf");
    expect(res.status).toBe(400);
    expect((await errorOf(res)).type).toBe("invalid_request");
  });

  test("unicode and control characters in the URL never cause a 5xx", async () => {
    for (const url of [
      "https://exa mple.com",
      "https://\u0000x.com",
      "http://[::1",
      "http://",
      "javascript:alert(1)",
    ]) {
      const res = await app.request(`/v1/fetch?url=${encodeURIComponent(url)}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});
