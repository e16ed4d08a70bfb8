import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { rejection } from "../../test/helpers/errors.ts";
import { loadConfig } from "../config.ts";
import { createHttpClient } from "./http-client.ts";

/**
 * The guarded client with SSRF protection on: an allowed origin (listed in SIPHON_SSRF_ALLOW)
 * that redirects, an internal service on another loopback port that is not allowed and counts
 * every connection it gets, and a second allowed origin to see what crosses between origins.
 */

interface Seen {
  method: string;
  path: string;
  authorization: string | null;
  cookie: string | null;
  token: string | null;
  contentType: string | null;
  body: string;
}

let internal: ReturnType<typeof Bun.serve>;
let internalHits = 0;
let allowed: ReturnType<typeof Bun.serve>;
let other: ReturnType<typeof Bun.serve>;
const seenByOther: Seen[] = [];
const seenByAllowed: Seen[] = [];

async function seen(request: Request): Promise<Seen> {
  return {
    method: request.method,
    path: new URL(request.url).pathname,
    authorization: request.headers.get("authorization"),
    cookie: request.headers.get("cookie"),
    token: request.headers.get("x-subscription-token"),
    contentType: request.headers.get("content-type"),
    body: await request.text(),
  };
}

beforeAll(() => {
  internal = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      internalHits++;
      return new Response("<html><body>INTERNAL-SECRET-HTML</body></html>", {
        headers: { "content-type": "text/html" },
      });
    },
  });
  other = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      seenByOther.push(await seen(request));
      return Response.json({ ok: true });
    },
  });
  allowed = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      seenByAllowed.push(await seen(request));
      const [, kind, code, ...rest] = url.pathname.split("/");
      const to = url.searchParams.get("to") ?? "";
      if (kind === "r") return new Response(null, { status: Number(code), headers: { location: to } });
      if (kind === "same")
        return new Response(null, { status: Number(code), headers: { location: `/echo/${rest.join("/")}` } });
      if (kind === "loop")
        return new Response(null, { status: 302, headers: { location: `/loop/${Number(code) + 1}` } });
      if (kind === "stream") {
        const chunks = Array.from({ length: Number(code) / 100 }, () => "y".repeat(100));
        return new Response(
          new ReadableStream({
            pull(controller) {
              const next = chunks.shift();
              if (next === undefined) controller.close();
              else controller.enqueue(new TextEncoder().encode(next));
            },
          }),
        );
      }
      if (kind === "big") return new Response("x".repeat(Number(code)));
      return Response.json({ ok: true, path: url.pathname });
    },
  });
});

afterAll(() => {
  internal.stop(true);
  allowed.stop(true);
  other.stop(true);
});

beforeEach(() => {
  internalHits = 0;
  seenByOther.length = 0;
  seenByAllowed.length = 0;
});

function client(extra: { trusted?: string[]; maxBodyBytes?: number; maxRedirects?: number } = {}) {
  const config = loadConfig(
    {},
    {
      home: "/nonexistent/siphon-http-client-test",
      disableSsrfProtection: false,
      ssrfAllow: `127.0.0.1:${allowed.port},127.0.0.1:${other.port}`,
    },
  );
  return createHttpClient({ config, ...extra });
}

const secret = () => `http://127.0.0.1:${internal.port}/admin/secret?`;
const redirect = (code: number, to: string) =>
  `http://127.0.0.1:${allowed.port}/r/${code}?to=${encodeURIComponent(to)}`;

describe("a redirect towards a refused address", () => {
  for (const code of [301, 302, 303, 307, 308]) {
    for (const method of ["GET", "POST"]) {
      test(`${code} after ${method}: forbidden_url, no connection, nothing of the answer quoted`, async () => {
        const error = await rejection(
          client().fetch(redirect(code, secret()), {
            method,
            body: method === "POST" ? JSON.stringify({ model: "x" }) : undefined,
            headers: { authorization: "Bearer sk-caller-key" },
          }),
        );
        expect(error.type).toBe("forbidden_url");
        expect(error.message).toContain("redirect");
        expect(error.message).not.toContain("INTERNAL-SECRET");
        expect(internalHits).toBe(0);
        expect(seenByAllowed).toHaveLength(1);
      });
    }
  }

  test("a refused address on the first hop is never connected to", async () => {
    const error = await rejection(client().fetch(secret()));
    expect(error.type).toBe("forbidden_url");
    expect(internalHits).toBe(0);
  });

  test("a trusted base is exempt itself, but its redirects are checked", async () => {
    const trusted = [`http://127.0.0.1:${internal.port}/v1`];
    const ok = await client({ trusted }).fetch(secret());
    expect(ok.status).toBe(200);
    expect(internalHits).toBe(1);
    internalHits = 0;
    const hop = `http://127.0.0.1:${allowed.port}/r/302?to=${encodeURIComponent("http://127.0.0.1:1/")}`;
    const error = await rejection(client({ trusted: [`http://127.0.0.1:${allowed.port}`] }).fetch(hop));
    expect(error.type).toBe("forbidden_url");
  });

  test("a redirect to a non-HTTP scheme is refused", async () => {
    const error = await rejection(client().fetch(redirect(302, "file:///etc/passwd")));
    expect(error.type).toBe("forbidden_url");
  });

  test("redirect: manual and maxRedirects 0 return the 3xx as it is", async () => {
    const manual = await client().fetch(redirect(307, secret()), { redirect: "manual" });
    expect(manual.status).toBe(307);
    const none = await client({ maxRedirects: 0 }).fetch(redirect(308, secret()));
    expect(none.status).toBe(308);
    expect(internalHits).toBe(0);
  });

  test("too many redirects is a network_error", async () => {
    const error = await rejection(
      client({ maxRedirects: 2 }).fetch(`http://127.0.0.1:${allowed.port}/loop/0`),
    );
    expect(error.type).toBe("network_error");
    expect(error.message).toContain("Too many redirects");
    expect(seenByAllowed).toHaveLength(3);
  });
});

describe("redirects between allowed origins", () => {
  const toOther = (code: number) => redirect(code, `http://127.0.0.1:${other.port}/landing`);
  const send = (code: number) =>
    client({ trusted: [], maxBodyBytes: 1024 }).fetch(toOther(code), {
      method: "POST",
      body: '{"q":1}',
      headers: {
        "content-type": "application/json",
        authorization: "Bearer sk-caller-key",
        cookie: "session=1",
        "x-subscription-token": "brave-key",
      },
    });

  test("303 turns POST into GET without a body; 307 and 308 keep both", async () => {
    for (const code of [303, 307, 308]) {
      seenByOther.length = 0;
      const response = await send(code);
      expect(response.status).toBe(200);
      const [landed] = seenByOther;
      if (code === 303) {
        expect(landed?.method).toBe("GET");
        expect(landed?.body).toBe("");
        expect(landed?.contentType).toBeNull();
      } else {
        expect(landed?.method).toBe("POST");
        expect(landed?.body).toBe('{"q":1}');
      }
    }
  });

  test("Authorization and Cookie never reach another origin; a declared credential header neither", async () => {
    await send(307);
    expect(seenByOther[0]?.authorization).toBeNull();
    expect(seenByOther[0]?.cookie).toBeNull();
    expect(seenByOther[0]?.token).toBe("brave-key");
    seenByOther.length = 0;
    const config = loadConfig(
      {},
      {
        home: "/nonexistent/siphon-http-client-test",
        disableSsrfProtection: false,
        ssrfAllow: `127.0.0.1:${allowed.port},127.0.0.1:${other.port}`,
      },
    );
    await createHttpClient({ config, credentialHeaders: ["x-subscription-token"] }).fetch(toOther(302), {
      headers: { "x-subscription-token": "brave-key" },
    });
    expect(seenByOther[0]?.token).toBeNull();
  });

  test("credentials stay on a redirect within the same origin", async () => {
    await client().fetch(`http://127.0.0.1:${allowed.port}/same/307/here`, {
      method: "POST",
      body: "{}",
      headers: { authorization: "Bearer sk-caller-key" },
    });
    expect(seenByAllowed.at(-1)?.path).toBe("/echo/here");
    expect(seenByAllowed.at(-1)?.authorization).toBe("Bearer sk-caller-key");
  });
});

describe("the body cap", () => {
  test("a body over maxBodyBytes fails with content_too_large, declared or streamed", async () => {
    const declared = await rejection(
      client({ maxBodyBytes: 1000 }).fetch(`http://127.0.0.1:${allowed.port}/big/5000`),
    );
    expect(declared.type).toBe("content_too_large");
    const streamed = await client({ maxBodyBytes: 1000 }).fetch(
      `http://127.0.0.1:${allowed.port}/stream/5000`,
    );
    const error = await rejection(streamed.text());
    expect(error.type).toBe("content_too_large");
  });

  test("a body within the cap is read whole", async () => {
    const response = await client({ maxBodyBytes: 1000 }).fetch(`http://127.0.0.1:${allowed.port}/big/1000`);
    expect((await response.text()).length).toBe(1000);
  });
});
