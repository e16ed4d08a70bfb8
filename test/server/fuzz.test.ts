import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Bad input against every endpoint that exists: wrong types, huge values,
 * missing fields, malformed JSON, 1 MB bodies, unicode in headers. Every
 * answer must be a format-B 4xx: never a 5xx, a stack trace or a hang.
 * Inputs are generated from a fixed seed so a failure reproduces.
 */

let app: TestApp;
let key: string;
beforeAll(async () => {
  // SSRF on and a loopback target: an input that happens to be valid ends in a fast, offline 403.
  app = await startTestApp({ auth: "required", disableSsrfProtection: false });
  key = (await app.createKey("max")).key;
});
afterAll(() => app.close());

function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const WEIRD_VALUES: unknown[] = [
  null,
  true,
  -1,
  1e308,
  Number.MAX_SAFE_INTEGER,
  0.5,
  "",
  "x".repeat(5000),
  "😀\u0000\u202e",
  [],
  [null],
  {},
  { nested: { deep: [1, 2, 3] } },
  "javascript:alert(1)",
  "file:///etc/passwd",
  "http://",
];

const FIELDS: Record<string, string[]> = {
  "/v1/fetch": [
    "url",
    "format",
    "render",
    "wait",
    "includeTags",
    "onlyMainContent",
    "actions",
    "maxAge",
    "formats",
    "cookies",
    "headers",
    "stealth",
  ],
  "/v1/screenshot": [
    "url",
    "fullPage",
    "width",
    "height",
    "format",
    "quality",
    "waitFor",
    "timeout",
    "actions",
    "cookies",
  ],
};

async function expectFormatB4xx(res: Response, what: string) {
  const text = await res.text();
  if (res.status < 400 || res.status >= 500)
    throw new Error(`${what}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text);
  expect(body.success).toBe(false);
  expect(typeof body.error.type).toBe("string");
  expect(typeof body.error.message).toBe("string");
  expect(body.metadata.requestId).toBe(res.headers.get("x-request-id"));
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

describe("fuzzing every endpoint", () => {
  test("random wrong-typed bodies on POST endpoints", async () => {
    const next = rng(42);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)] as T;
    for (const [path, fields] of Object.entries(FIELDS)) {
      for (let i = 0; i < 150; i++) {
        const body: Record<string, unknown> = {};
        // Always one bad field among plausible ones; sometimes drop the url entirely.
        if (next() > 0.2) body.url = "http://127.0.0.1:1/";
        const field = pick(fields);
        body[field] = pick(WEIRD_VALUES);
        if (field === "url" && typeof body.url === "string" && body.url.startsWith("http://127.0.0.1"))
          continue;
        const res = await app.request(path, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          body: JSON.stringify(body),
        });
        await expectFormatB4xx(res, `${path} ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
  });

  test("malformed JSON, 1 MB bodies, non-object bodies", async () => {
    const bodies = [
      "{",
      '{"url":',
      "[]",
      "42",
      '"str"',
      "null",
      "\u0000",
      `{"url":"${"a".repeat(1024 * 1024)}"}`,
    ];
    for (const path of Object.keys(FIELDS)) {
      for (const body of bodies) {
        const res = await app.request(path, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          body,
        });
        await expectFormatB4xx(res, `${path} ${body.slice(0, 40)}`);
      }
    }
  });

  test("bad query strings on GET /v1/fetch", async () => {
    const queries = [
      "",
      "url=",
      "url=%ZZ",
      "url=http://127.0.0.1:1/&wait=1e9",
      "url=http://127.0.0.1:1/&maxAge=abc",
      "url=http://127.0.0.1:1/&format[]=x",
      `url=http://127.0.0.1:1/&includeTags=${"a,".repeat(5000)}`,
      "url=http://127.0.0.1:1/&actions=%7B",
      "url=http://127.0.0.1:1/&actions=[1,2,3]",
      "url=http://127.0.0.1:1/&location=%F0%9F%98%80",
    ];
    for (const query of queries) {
      const res = await app.request(`/v1/fetch?${query}`, { headers: { authorization: `Bearer ${key}` } });
      await expectFormatB4xx(res, `GET /v1/fetch?${query.slice(0, 60)}`);
    }
  });

  test("unicode and junk in auth headers, unknown routes and methods", async () => {
    const headerValues = [
      "Bearer 😀",
      "Bearer sph_live_ü",
      `Bearer ${"x".repeat(10_000)}`,
      "\t",
      "Bearer sph_live_",
    ];
    for (const value of headerValues) {
      let headers: Headers;
      try {
        headers = new Headers({ authorization: value });
      } catch {
        continue; // Not a sendable header value in the first place.
      }
      for (const path of ["/v1/fetch?url=http://127.0.0.1:1/", "/v1/cli/usage", "/v1/stats"]) {
        await expectFormatB4xx(await app.request(path, { headers }), `${path} with ${value.slice(0, 20)}`);
      }
    }
    for (const [method, path] of [
      ["DELETE", "/v1/fetch"],
      ["PUT", "/v1/screenshot"],
      ["GET", "/v1/screenshot"],
      ["POST", "/v1/nothing"],
      ["GET", "/%2e%2e/etc/passwd"],
    ] as const) {
      await expectFormatB4xx(
        await app.request(path, { method, headers: { authorization: `Bearer ${key}` } }),
        `${method} ${path}`,
      );
    }
  });
});
