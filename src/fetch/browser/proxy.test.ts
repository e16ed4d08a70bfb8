import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { createSsrfGuard, type Resolver } from "../ssrf.ts";
import { type GuardProxy, PROXY_ERROR_HEADER, proxyAnswerError, startGuardProxy } from "./proxy.ts";

/** The allowed server, and a second one on loopback that nothing may reach. */
let allowed: ReturnType<typeof Bun.serve>;
let refused: ReturnType<typeof Bun.serve>;
let refusedHits = 0;
let proxy: GuardProxy;
let port: number;

/** Names only this resolver knows: a second, system lookup of them would fail. */
const resolver: Resolver = async (name) => {
  if (name === "pinned.test" || name === "rebound.test") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`${name} does not resolve`), { code: "ENOTFOUND" });
};

/** A raw connection to the proxy that collects what it answers. */
function open(): Promise<{ socket: Socket; received: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let data = "";
    const socket = connect({ host: "127.0.0.1", port });
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      data += chunk;
    });
    const ended = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("error", reject);
    socket.once("connect", () => resolve({ socket, received: () => data, ended }));
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

const get = (origin: string, path: string) =>
  `GET ${origin}${path} HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nProxy-Connection: keep-alive\r\n\r\n`;

beforeAll(async () => {
  allowed = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => new Response(`allowed ${new URL(request.url).pathname}`),
  });
  refused = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      refusedHits++;
      return new Response("refused server");
    },
  });
  const guard = createSsrfGuard({
    enabled: true,
    allow: [`127.0.0.1:${allowed.port}`, `pinned.test:${allowed.port}`],
    resolver,
  });
  proxy = await startGuardProxy(guard);
  port = Number(new URL(proxy.url).port);
});

afterAll(async () => {
  await proxy.close();
  allowed.stop(true);
  refused.stop(true);
});

describe("SSRF proxy", () => {
  test("listens on loopback only", () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test("checks every request of a kept-alive connection, and refuses the second's host", async () => {
    refusedHits = 0;
    const client = await open();
    client.socket.write(get(`http://127.0.0.1:${allowed.port}`, "/one"));
    await until(() => client.received().includes("allowed /one"), "the first answer");
    client.socket.write(get(`http://127.0.0.1:${refused.port}`, "/two"));
    await client.ended;
    const second = client.received().slice(client.received().indexOf("allowed /one"));
    expect(second).toContain("HTTP/1.1 403");
    expect(second.toLowerCase()).toContain(`${PROXY_ERROR_HEADER}: forbidden_url`);
    expect(refusedHits).toBe(0);
  });

  test("answers a refused CONNECT 403 and closes, for loopback, link-local and private targets", async () => {
    refusedHits = 0;
    for (const target of [`127.0.0.1:${refused.port}`, "169.254.169.254:80", "10.0.0.1:443", "[::1]:80"]) {
      const client = await open();
      client.socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      await client.ended;
      expect(client.received()).toStartWith("HTTP/1.1 403");
    }
    expect(refusedHits).toBe(0);
  });

  test("refuses a name whose answer is loopback, over plain HTTP and CONNECT", async () => {
    refusedHits = 0;
    const plain = await open();
    plain.socket.write(get(`http://rebound.test:${refused.port}`, "/"));
    await plain.ended;
    expect(plain.received()).toStartWith("HTTP/1.1 403");
    const tunnel = await open();
    tunnel.socket.write(`CONNECT rebound.test:${refused.port} HTTP/1.1\r\n\r\n`);
    await tunnel.ended;
    expect(tunnel.received()).toStartWith("HTTP/1.1 403");
    expect(refusedHits).toBe(0);
  });

  test("connects to the address the guard checked, never looking the name up again", async () => {
    const plain = await open();
    plain.socket.write(get(`http://pinned.test:${allowed.port}`, "/plain"));
    await until(() => plain.received().includes("allowed /plain"), "the plain answer");
    plain.socket.destroy();

    const tunnel = await open();
    tunnel.socket.write(`CONNECT pinned.test:${allowed.port} HTTP/1.1\r\n\r\n`);
    await until(() => tunnel.received().startsWith("HTTP/1.1 200"), "the tunnel");
    tunnel.socket.write(`GET /tunnel HTTP/1.1\r\nHost: pinned.test:${allowed.port}\r\n\r\n`);
    await until(() => tunnel.received().includes("allowed /tunnel"), "the tunnelled answer");
    tunnel.socket.destroy();
  });

  test("refuses a host written other than canonically, even when its address is allowed", async () => {
    for (const host of ["0x7f.0.0.1", "2130706433", "127.1", "PINNED.test"]) {
      const client = await open();
      client.socket.write(`CONNECT ${host}:${allowed.port} HTTP/1.1\r\n\r\n`);
      await client.ended;
      expect(client.received()).toStartWith("HTTP/1.1 400");
    }
  });

  test("a name that does not resolve is a 502 marked network_error", async () => {
    const client = await open();
    client.socket.write(get("http://nowhere.test", "/"));
    await client.ended;
    expect(client.received()).toStartWith("HTTP/1.1 502");
    expect(client.received().toLowerCase()).toContain(`${PROXY_ERROR_HEADER}: network_error`);
  });

  test("close stops listening", async () => {
    const other = await startGuardProxy(createSsrfGuard({ enabled: true }));
    const otherPort = Number(new URL(other.url).port);
    await other.close();
    await other.close();
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port: otherPort });
      socket.once("error", resolve);
      socket.once("connect", () => {
        socket.destroy();
        resolve(new Error("connected") as NodeJS.ErrnoException);
      });
    });
    expect(error.code).toBe("ECONNREFUSED");
  });
});

describe("proxyAnswerError", () => {
  const url = new URL("http://example.com/page");

  test("maps the proxy's refusals and upstream failures, and leaves a site's own answers alone", () => {
    expect(proxyAnswerError(url, 403, { [PROXY_ERROR_HEADER]: "forbidden_url" })?.type).toBe("forbidden_url");
    expect(proxyAnswerError(url, 502, { [PROXY_ERROR_HEADER]: "network_error" })?.type).toBe("network_error");
    const down = proxyAnswerError(url, 594, {});
    expect(down?.type).toBe("network_error");
    expect(down?.message).toContain("refused the connection");
    expect(proxyAnswerError(url, 403, {})).toBeUndefined();
    expect(proxyAnswerError(url, 502, {})).toBeUndefined();
    expect(proxyAnswerError(url, 200, {})).toBeUndefined();
  });
});
