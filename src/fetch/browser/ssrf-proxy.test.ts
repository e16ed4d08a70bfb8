import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Browser } from "puppeteer-core";
import { rejection } from "../../../test/helpers/errors.ts";
import { type Config, loadConfig } from "../../config.ts";
import type { ResolvedAddress, Resolver } from "../ssrf.ts";
import { createBrowserEngine } from "./engine.ts";
import { CHROMIUM_ARGS, findChromium, isHeadlessShell, launchBrowser } from "./launch.ts";
import { type BrowserPool, createBrowserPool } from "./pool.ts";

const BROWSER_TEST_MS = 45_000;
/** How long the page's own probes get before the result is taken: a refusal takes milliseconds, but a loaded 2-core machine can stretch them past a second. */
const PAGE_WAIT_MS = 3_000;
const text = (body: Uint8Array) => new TextDecoder().decode(body);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page's own server, the one origin the SSRF allow-list exempts. */
let inside: ReturnType<typeof Bun.serve>;
/** A second loopback server that nothing may reach; counts every request, WebSocket upgrades included. */
let outside: ReturnType<typeof Bun.serve>;
let outsideHits: string[] = [];
let pool: BrowserPool;
let config: Config;
let wrapperDir: string;

/**
 * Names under .test stand for hosts whose DNS answer changes between siphon's check and the
 * connection (rebinding): the engine's guard resolves them to a public address, the proxy's
 * guard, at connection time, to an internal one (metadata.test to the cloud metadata address,
 * private.test to a private one, the rest to loopback). Without the proxy, Chromium's own
 * resolver answers (--host-resolver-rules: loopback, so that nothing leaves this machine).
 */
const PUBLIC: ResolvedAddress = { address: "93.184.215.14", family: 4 };
const INTERNAL: Record<string, string> = { "metadata.test": "169.254.169.254", "private.test": "10.0.0.1" };
const notFound = (name: string) =>
  Object.assign(new Error(`${name} is not a test name`), { code: "ENOTFOUND" });
const engineResolver: Resolver = async (name) => {
  if (name.endsWith(".test")) return [PUBLIC];
  throw notFound(name);
};
const proxyResolver: Resolver = async (name) => {
  if (name.endsWith(".test")) return [{ address: INTERNAL[name] ?? "127.0.0.1", family: 4 }];
  throw notFound(name);
};

const html = (body: string) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

/** A page that tries every way a page has to open a connection, towards each of `targets`. */
function attackPage(targets: string[]): string {
  const list = JSON.stringify(targets);
  const tags = targets
    .map((origin) => `<img src="${origin}/img"><iframe src="${origin}/frame"></iframe>`)
    .join("\n");
  return `<!DOCTYPE html><html><head><title>Inside</title></head><body><h1>Inside page</h1>
${tags}
<pre id="own-fetch"></pre><pre id="own-ws"></pre><pre id="sockets"></pre>
<script>
  const sockets = [];
  for (const origin of ${list}) {
    fetch(origin + "/fetch", { mode: "no-cors", signal: AbortSignal.timeout(${PAGE_WAIT_MS}) }).catch(() => {});
    try {
      const ws = new WebSocket(origin.replace("http", "ws") + "/ws");
      let givenUp = false;
      ws.onopen = () => sockets.push("open");
      ws.onclose = () => {
        sockets.push(givenUp ? "given up" : "failed");
        document.getElementById("sockets").textContent = sockets.join(",");
      };
      setTimeout(() => { givenUp = true; ws.close(); }, ${PAGE_WAIT_MS});
    } catch {}
    window.open(origin + "/popup");
  }
  fetch("/own", { method: "POST", body: "ping" }).then((r) => r.text())
    .then((t) => { document.getElementById("own-fetch").textContent = t; });
  const own = new WebSocket("ws://" + location.host + "/ws");
  own.onopen = () => own.send("ping");
  own.onmessage = (event) => { document.getElementById("own-ws").textContent = event.data; };
</script></body></html>`;
}

/** A page whose WebRTC (STUN, TURN) and WebTransport aim at a UDP port on loopback. */
function udpPage(port: number): string {
  return `<!DOCTYPE html><html><head><title>UDP</title></head><body><h1>UDP page</h1><script>
  const pc = new RTCPeerConnection({ iceServers: [
    { urls: "stun:127.0.0.1:${port}" },
    { urls: "turn:127.0.0.1:${port}?transport=udp", username: "u", credential: "p" },
  ] });
  pc.createDataChannel("probe");
  pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch(() => {});
  try { new WebTransport("https://127.0.0.1:${port}/").closed.catch(() => {}); } catch {}
</script></body></html>`;
}

/** UDP datagrams that reached the loopback UDP port of udpPage. */
let udpPackets = 0;
let udp: Bun.udp.Socket<"buffer">;

beforeAll(async () => {
  udp = await Bun.udpSocket({
    hostname: "127.0.0.1",
    socket: {
      data() {
        udpPackets++;
      },
    },
  });
  outside = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request, server) {
      outsideHits.push(`${request.headers.get("upgrade") ? "upgrade " : ""}${new URL(request.url).pathname}`);
      if (server.upgrade(request, { data: undefined })) return undefined;
      return html("<h1>Outside page</h1>");
    },
    websocket: { message() {} },
  });
  inside = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request, server) {
      const path = new URL(request.url).pathname;
      if (path === "/ws" && server.upgrade(request, { data: undefined })) return undefined;
      if (path === "/own") return new Response(`own ${request.method} ${await request.text()}`);
      const other = `http://127.0.0.1:${outside.port}`;
      if (path === "/loopback") return html(attackPage([other]));
      if (path === "/internal") return html(attackPage(["http://169.254.169.254", "http://10.0.0.1"]));
      if (path === "/rebinding") {
        const names = ["rebind.test", "metadata.test", "private.test"];
        return html(attackPage(names.map((name) => `http://${name}:${outside.port}`)));
      }
      if (path === "/udp") return html(udpPage(udp.port));
      return new Response("not found", { status: 404 });
    },
    websocket: {
      message(ws, message) {
        ws.send(`echo ${message}`);
      },
    },
  });
  // Chromium's own resolver is told that every .test name is loopback, as a rebinding DNS
  // server would answer it at connection time. Both browsers are wrapped, the one plain renders
  // run on (the headless shell where installed) and stealth's (full Chromium), each under its
  // own name, so each is launched as it would be.
  const plain = loadConfig({ SIPHON_HOME: "/nonexistent/siphon-test-home" });
  wrapperDir = mkdtempSync(join(tmpdir(), "siphon-ssrf-proxy-test-"));
  const wrap = (kind: "browser" | "stealth") => {
    const real = findChromium(plain, kind);
    mkdirSync(join(wrapperDir, kind));
    const wrapper = join(wrapperDir, kind, basename(real));
    writeFileSync(wrapper, `#!/bin/sh\nexec ${real} '--host-resolver-rules=MAP *.test 127.0.0.1' "$@"\n`);
    chmodSync(wrapper, 0o755);
    return wrapper;
  };
  config = loadConfig(
    { SIPHON_HOME: "/nonexistent/siphon-test-home" },
    {
      disableSsrfProtection: false,
      ssrfAllow: `127.0.0.1:${inside.port}`,
      chromiumShellPath: wrap("browser"),
      chromiumPath: wrap("stealth"),
    },
  );
  pool = createBrowserPool(config, {
    launch: (launchConfig, kind) => launchBrowser(launchConfig, { kind, resolver: proxyResolver }),
  });
});

afterAll(async () => {
  await pool?.close();
  inside?.stop(true);
  outside?.stop(true);
  udp?.close();
  if (wrapperDir) rmSync(wrapperDir, { recursive: true, force: true });
});

const engine = (on = pool, stealth = false) =>
  createBrowserEngine(config, on, { stealth, resolver: engineResolver });

/** Renders `path` of the inside server, lets late popups and sockets try, returns the page text. */
async function renderInside(path: string, on = pool, stealth = false): Promise<string> {
  outsideHits = [];
  const page = await engine(on, stealth).fetch(`http://127.0.0.1:${inside.port}${path}`, {
    wait: PAGE_WAIT_MS,
  });
  await sleep(500);
  return text(page.body);
}

describe("the browser's SSRF proxy", () => {
  test(
    "fetch, WebSocket, popup, image and frame towards another loopback port never reach it",
    async () => {
      const body = await renderInside("/loopback");
      expect(body).toContain("Inside page");
      expect(outsideHits).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  test(
    "the allowed origin's own fetch and WebSocket still work through the proxy",
    async () => {
      const body = await renderInside("/loopback");
      expect(body).toContain('<pre id="own-fetch">own POST ping</pre>');
      expect(body).toContain('<pre id="own-ws">echo ping</pre>');
    },
    BROWSER_TEST_MS,
  );

  test(
    "link-local and private addresses are refused before any connection is tried",
    async () => {
      const body = await renderInside("/internal");
      expect(body).toContain("Inside page");
      expect(body).toContain('<pre id="own-ws">echo ping</pre>');
      // Connecting to an unroutable address would last until the page gives up on it.
      expect(body).toContain('<pre id="sockets">failed,failed</pre>');
    },
    BROWSER_TEST_MS,
  );

  test(
    "names that rebind to loopback, metadata or private addresses after the check are refused",
    async () => {
      const body = await renderInside("/rebinding");
      expect(body).toContain("Inside page");
      expect(outsideHits).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  test(
    "WebRTC and WebTransport send nothing over UDP",
    async () => {
      udpPackets = 0;
      const body = await renderInside("/udp");
      expect(body).toContain("UDP page");
      expect(udpPackets).toBe(0);
    },
    BROWSER_TEST_MS,
  );

  test(
    "stealth's browser (full Chromium) is behind the same proxy: no other port, no UDP",
    async () => {
      udpPackets = 0;
      const body = await renderInside("/loopback", pool, true);
      expect(body).toContain('<pre id="own-ws">echo ping</pre>');
      expect(outsideHits).toEqual([]);
      expect(await renderInside("/udp", pool, true)).toContain("UDP page");
      expect(udpPackets).toBe(0);
    },
    BROWSER_TEST_MS,
  );

  test(
    "a main document whose name rebinds to loopback is forbidden_url",
    async () => {
      outsideHits = [];
      const error = await rejection(engine().fetch(`http://main.test:${outside.port}/`));
      expect(error.type).toBe("forbidden_url");
      expect(outsideHits).toEqual([]);
    },
    BROWSER_TEST_MS,
  );
});

describe("a connected browser (SIPHON_BROWSER_WS) on this host", () => {
  let remote: Browser;
  let connected: BrowserPool;

  beforeAll(async () => {
    const puppeteer = (await import("puppeteer-core")).default;
    // Started by hand with a DevTools port, as a browser service (full Chrome) would be: no proxy flags.
    remote = await puppeteer.launch({
      executablePath: config.chromiumPath,
      headless: isHeadlessShell(config.chromiumPath) ? "shell" : true,
      pipe: false,
      args: CHROMIUM_ARGS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const remoteConfig = { ...config, browserWs: remote.wsEndpoint() };
    connected = createBrowserPool(remoteConfig, {
      launch: (launchConfig, kind) => launchBrowser(launchConfig, { kind, resolver: proxyResolver }),
    });
  }, BROWSER_TEST_MS);

  afterAll(async () => {
    await connected?.close();
    await remote?.close();
  });

  test(
    "takes the proxy per context: popups, WebSockets and rebound names reach nothing",
    async () => {
      const body = await renderInside("/loopback", connected);
      expect(body).toContain("Inside page");
      expect(body).toContain('<pre id="own-ws">echo ping</pre>');
      expect(outsideHits).toEqual([]);
      await renderInside("/rebinding", connected);
      expect(outsideHits).toEqual([]);
      const error = await rejection(engine(connected).fetch(`http://main.test:${outside.port}/`));
      expect(error.type).toBe("forbidden_url");
      expect(outsideHits).toEqual([]);
    },
    BROWSER_TEST_MS,
  );
});
