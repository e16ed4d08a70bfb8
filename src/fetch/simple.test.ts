import { afterAll, describe, expect, test } from "bun:test";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { rejection } from "../../test/helpers/errors.ts";
import { type Config, loadConfig } from "../config.ts";
import { createSimpleEngine } from "./simple.ts";
import type { ResolvedAddress } from "./ssrf.ts";

// A self-signed certificate for "siphon.test" (test fixture only, valid until 2126).
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgi1ho15mTeztmUpVs
NWiLsrOQ0Qs8YKTzJn+vsjh75+ehRANCAASO9Ga0a5ImMJIrGvzK5kvCh2FjTtRF
F+YBSZD8RvY03HDl5DAtsEyhqsuo8aN68MxL8MNk91pjYAYExBB/Lfx9
-----END PRIVATE KEY-----`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUUzQNQWHNHv3WEaoi4OV7DNE9HWIwCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLc2lwaG9uLnRlc3QwIBcNMjYxMTIxMjIyMjA5WhgPMjEyNjEw
MjgyMjIyMDlaMBYxFDASBgNVBAMMC3NpcGhvbi50ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEjvRmtGuSJjCSKxr8yuZLwodhY07URRfmAUmQ/Eb2NNxw5eQw
LbBMoarLqPGjevDMS/DDZPdaY2AGBMQQfy38faNrMGkwHQYDVR0OBBYEFBqJEi5c
S02SqJdEmI8RP8axa56EMB8GA1UdIwQYMBaAFBqJEi5cS02SqJdEmI8RP8axa56E
MA8GA1UdEwEB/wQFMAMBAf8wFgYDVR0RBA8wDYILc2lwaG9uLnRlc3QwCgYIKoZI
zj0EAwIDRwAwRAIgXf+/6cdf0uC6TFd974EdzseBDyRvu+N3oepqIgDVl2YCIESn
gCYPUan+WHelEGePz3FqkZdpK0qJeGHvk2lPd2zD
-----END CERTIFICATE-----`;

const ARTICLE = `<html><head><title>Hello</title></head><body><p>${"Plain words. ".repeat(50)}</p></body></html>`;

/** The request headers each path last received, to assert what the engine actually sent. */
const seen = new Map<string, Record<string, string>>();

function redirect(location: string, status = 302, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { location, ...headers } });
}

const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  idleTimeout: 30,
  async fetch(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    seen.set(path, Object.fromEntries(req.headers));
    const many = /^\/many\/(\d+)$/.exec(path);
    if (many) return redirect(`/many/${Number(many[1]) + 1}`);
    switch (path) {
      case "/ok":
        return new Response(ARTICLE, {
          headers: { "Content-Type": "text/html; charset=utf-8", "X-Custom": "A" },
        });
      case "/echo":
        return Response.json(Object.fromEntries(req.headers));
      case "/chain/1":
        return redirect("2", 301);
      case "/chain/2":
        return redirect(`http://127.0.0.1:${site.port}/chain/3?from=2`, 302);
      case "/chain/3":
        return redirect("/ok#section", 307);
      case "/loop/a":
        return redirect("/loop/b");
      case "/loop/b":
        return redirect("/loop/a");
      case "/cookie-gate":
        if ((req.headers.get("cookie") ?? "").includes("gate=passed"))
          return new Response("through the gate");
        return redirect("/cookie-gate", 302, { "set-cookie": "gate=passed; Path=/; HttpOnly" });
      case "/to-other-origin":
        return redirect(`http://pinned.test:${site.port}/echo`);
      case "/not-modified":
        return new Response(null, { status: 304, headers: { location: "/ok" } });
      case "/redirect-without-location":
        return new Response("no location given", { status: 302 });
      case "/missing":
        return new Response("<h1>Not Found</h1>", { status: 404, headers: { "content-type": "text/html" } });
      case "/broken":
        return new Response("<h1>Server Error</h1>", { status: 500 });
      case "/slow":
        await Bun.sleep(1000);
        return new Response("finally");
      case "/hang":
        return new Promise<Response>(() => {});
      case "/stall-body":
        return new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode("<html><body>first bytes"));
            },
          }),
        );
      case "/big":
        return new Response("x".repeat(5000));
      case "/big-stream":
        return new Response(
          new ReadableStream({
            pull(controller) {
              controller.enqueue(new Uint8Array(1024).fill(120));
            },
          }),
        );
      case "/gzip":
        return new Response(gzipSync(ARTICLE), { headers: { "content-encoding": "gzip" } });
      case "/deflate":
        return new Response(deflateSync(ARTICLE), { headers: { "content-encoding": "deflate" } });
      case "/br":
        return new Response(brotliCompressSync(ARTICLE), { headers: { "content-encoding": "br" } });
      default:
        return new Response("unknown route", { status: 404 });
    }
  },
});

// Accepts connections and never says a word.
const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
// Hangs up as soon as the request arrives.
const rude = Bun.listen({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    data(socket) {
      socket.end();
    },
  },
});
const tlsSite = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  tls: { key: TLS_KEY, cert: TLS_CERT },
  fetch: () => new Response("secure"),
});
const closedPort = await (async () => {
  const temp = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = temp.port;
  await temp.stop(true);
  return port;
})();

afterAll(() => {
  site.stop(true);
  tlsSite.stop(true);
  silent.stop(true);
  rude.stop(true);
});

async function fakeResolver(hostname: string): Promise<ResolvedAddress[]> {
  if (hostname === "pinned.test" || hostname === "siphon.test") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
}

function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ SIPHON_HOME: "/nonexistent-siphon-home" }),
    disableSsrfProtection: true,
    ...overrides,
  };
}

const engine = createSimpleEngine(testConfig(), { resolver: fakeResolver });
const base = `http://127.0.0.1:${site.port}`;
const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe("simple engine: pages", () => {
  test("fetches a page with its status, lower-cased headers and body", async () => {
    const page = await engine.fetch(`${base}/ok`);
    expect(engine.name).toBe("simple");
    expect(page.url).toBe(`${base}/ok`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["x-custom"]).toBe("A");
    expect(text(page.body)).toBe(ARTICLE);
    expect(page.redirects).toEqual([]);
  });

  test.each([
    ["/missing", 404, "Not Found"],
    ["/broken", 500, "Server Error"],
  ])("%s comes back as a page with status %d, not an error", async (path, status, body) => {
    const page = await engine.fetch(`${base}${path}`);
    expect(page.status).toBe(status);
    expect(text(page.body)).toContain(body);
  });

  test.each(["gzip", "deflate", "br"])("a %s-compressed body arrives decoded", async (encoding) => {
    const page = await engine.fetch(`${base}/${encoding}`);
    expect(text(page.body)).toBe(ARTICLE);
    // The body is no longer encoded, so the header must not claim it is.
    expect(page.headers["content-encoding"]).toBeUndefined();
  });
});

describe("simple engine: request headers", () => {
  test("sends browser-like defaults", async () => {
    await engine.fetch(`${base}/echo`);
    const headers = seen.get("/echo")!;
    expect(headers["user-agent"]).toBe(testConfig().userAgent);
    expect(headers["accept-language"]).toBe("en-US,en;q=0.9");
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
    expect(headers.accept).toContain("text/html");
    expect(headers["upgrade-insecure-requests"]).toBe("1");
    expect(headers["sec-ch-ua"]).toContain('v="131"');
  });

  test("asks for HTML alone by default: a map, sitemap or robots.txt read never invites markdown", async () => {
    await engine.fetch(`${base}/echo`);
    expect(seen.get("/echo")!.accept).not.toContain("markdown");
  });

  test("caller headers are sent and win over the defaults, whatever their case", async () => {
    await engine.fetch(`${base}/echo`, {
      headers: { "X-Api-Key": "k1", "accept-language": "de-DE,de;q=0.9", "USER-AGENT": "MyBot/1.0" },
    });
    const headers = seen.get("/echo")!;
    expect(headers["x-api-key"]).toBe("k1");
    expect(headers["accept-language"]).toBe("de-DE,de;q=0.9");
    expect(headers["user-agent"]).toBe("MyBot/1.0");
  });

  // pinned.test exists only in the fake resolver: a second, system DNS lookup would fail the fetch.
  test("connects to the checked address but sends the real Host, and reports the real URL", async () => {
    const page = await engine.fetch(`http://pinned.test:${site.port}/echo`, {
      headers: { Host: "spoofed.test" },
    });
    expect(seen.get("/echo")!.host).toBe(`pinned.test:${site.port}`);
    expect(page.url).toBe(`http://pinned.test:${site.port}/echo`);
  });

  test("credentials do not follow a redirect to another origin", async () => {
    await engine.fetch(`${base}/to-other-origin`, {
      headers: { Authorization: "Bearer secret", "X-Keep": "1" },
    });
    expect(seen.get("/to-other-origin")!.authorization).toBe("Bearer secret");
    expect(seen.get("/echo")!.authorization).toBeUndefined();
    expect(seen.get("/echo")!["x-keep"]).toBe("1");
  });
});

describe("simple engine: redirects", () => {
  test("follows relative and absolute Location headers and lists the hops", async () => {
    const page = await engine.fetch(`${base}/chain/1`);
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${base}/ok`);
    expect(page.redirects).toEqual([`${base}/chain/1`, `${base}/chain/2`, `${base}/chain/3?from=2`]);
    expect(text(page.body)).toBe(ARTICLE);
  });

  test("a redirect loop fails with a message naming the loop", async () => {
    const error = await rejection(engine.fetch(`${base}/loop/a`));
    expect(error.type).toBe("network_error");
    expect(error.message).toContain("Redirect loop");
    expect(error.message).toContain("/loop/a");
  });

  test("more than maxRedirects hops fails; exactly maxRedirects succeeds", async () => {
    const strict = createSimpleEngine(testConfig({ maxRedirects: 3 }));
    const error = await rejection(strict.fetch(`${base}/many/0`));
    expect(error.type).toBe("network_error");
    expect(error.status).toBe(502);
    expect(error.message).toContain("more than 3");
    const defaults = await rejection(engine.fetch(`${base}/many/0`));
    expect(defaults.message).toContain("more than 10");
    expect(seen.has("/many/10")).toBe(true);
    expect(seen.has("/many/11")).toBe(false);
  });

  test("a cookie set on a redirect is sent on the next hop, so self-redirect gates open", async () => {
    const page = await engine.fetch(`${base}/cookie-gate`);
    expect(text(page.body)).toBe("through the gate");
    expect(page.redirects).toEqual([`${base}/cookie-gate`]);
  });

  test("a 304 and a 3xx without Location are returned, not followed", async () => {
    expect((await engine.fetch(`${base}/not-modified`)).status).toBe(304);
    const page = await engine.fetch(`${base}/redirect-without-location`);
    expect(page.status).toBe(302);
    expect(text(page.body)).toBe("no location given");
  });
});

describe("simple engine: failures", () => {
  test("a page slower than timeoutMs is a 504 timeout", async () => {
    const started = Date.now();
    const error = await rejection(engine.fetch(`${base}/slow`, { timeoutMs: 150 }));
    expect(error.type).toBe("timeout");
    expect(error.status).toBe(504);
    expect(error.message).toContain("150 ms");
    expect(Date.now() - started).toBeLessThan(900);
  });

  test("config.fetchTimeoutMs applies when no timeoutMs is given", async () => {
    const quick = createSimpleEngine(testConfig({ fetchTimeoutMs: 100 }));
    expect((await rejection(quick.fetch(`${base}/hang`))).type).toBe("timeout");
  });

  test("a server that accepts but never answers times out", async () => {
    const error = await rejection(engine.fetch(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 150 }));
    expect(error.type).toBe("timeout");
  });

  test("a body that stalls after the headers times out", async () => {
    const error = await rejection(engine.fetch(`${base}/stall-body`, { timeoutMs: 200 }));
    expect(error.type).toBe("timeout");
  });

  test("the caller's signal cancels the fetch", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(
      engine.fetch(`${base}/hang`, { signal: controller.signal, timeoutMs: 5000 }),
    );
    expect(error.type).toBe("network_error");
    expect(error.message).toContain("cancelled");
  });

  test("a closed port is a 502 network_error saying the connection was refused", async () => {
    const error = await rejection(engine.fetch(`http://127.0.0.1:${closedPort}/`));
    expect(error.type).toBe("network_error");
    expect(error.status).toBe(502);
    expect(error.message).toContain("refused");
  });

  test("a server hanging up mid-request is a network_error", async () => {
    const error = await rejection(engine.fetch(`http://127.0.0.1:${rude.port}/`, { timeoutMs: 2000 }));
    expect(error.type).toBe("network_error");
  });

  test("a name that does not resolve is a network_error naming it", async () => {
    const error = await rejection(engine.fetch("http://does-not-exist.test/"));
    expect(error.type).toBe("network_error");
    expect(error.message).toContain("does-not-exist.test");
  });

  test("an untrusted certificate is a network_error about TLS", async () => {
    const error = await rejection(engine.fetch(`https://siphon.test:${tlsSite.port}/`, { timeoutMs: 2000 }));
    expect(error.type).toBe("network_error");
    expect(error.message).toContain("TLS with siphon.test failed");
  });

  test.each(["/big", "/big-stream"])("a body over maxBodyBytes (%s) is content_too_large", async (path) => {
    const small = createSimpleEngine(testConfig({ maxBodyBytes: 1000 }));
    const error = await rejection(small.fetch(`${base}${path}`, { timeoutMs: 2000 }));
    expect(error.type).toBe("content_too_large");
    expect(error.message).toContain("1000-byte limit");
  });

  test("a body exactly at maxBodyBytes is fine", async () => {
    const exact = createSimpleEngine(testConfig({ maxBodyBytes: 5000 }));
    expect((await exact.fetch(`${base}/big`)).body.byteLength).toBe(5000);
  });

  test("URL rules apply before anything is sent", async () => {
    expect((await rejection(engine.fetch(`${base}/ok#frag`))).type).toBe("invalid_url");
    expect((await rejection(engine.fetch("ftp://example.com/"))).type).toBe("forbidden_url");
    expect((await rejection(engine.fetch(""))).type).toBe("invalid_request");
  });
});

test("a DNS lookup that never answers is bounded by the timeout too", async () => {
  const stuck = createSimpleEngine(testConfig(), { resolver: () => new Promise(() => {}) });
  const error = await rejection(stuck.fetch("http://slow-dns.test/", { timeoutMs: 100 }));
  expect(error.type).toBe("timeout");
});
