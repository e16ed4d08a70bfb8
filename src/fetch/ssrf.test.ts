import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rejection } from "../../test/helpers/errors.ts";
import { type Config, loadConfig } from "../config.ts";
import { createSimpleEngine } from "./simple.ts";
import { createSsrfGuard, parseAllowList, type ResolvedAddress, refusalReason } from "./ssrf.ts";
import { parseTargetUrl } from "./url.ts";

// Made-up names a hostile DNS could serve; the guard must judge every address they resolve to.
const FAKE_DNS: Record<string, ResolvedAddress[]> = {
  "metadata.google.internal": [{ address: "169.254.169.254", family: 4 }],
  "internal.example.test": [{ address: "10.1.2.3", family: 4 }],
  "mixed.example.test": [
    { address: "93.184.216.34", family: 4 },
    { address: "10.0.0.5", family: 4 },
  ],
  "v6private.example.test": [{ address: "fd00::1", family: 6 }],
  "mapped.example.test": [{ address: "::ffff:127.0.0.1", family: 6 }],
  "evil.test": [{ address: "127.0.0.1", family: 4 }],
  "public.example.test": [{ address: "93.184.216.34", family: 4 }],
  "loopback.test": [{ address: "127.0.0.1", family: 4 }],
};

async function fakeResolver(hostname: string): Promise<ResolvedAddress[]> {
  const found = FAKE_DNS[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return found;
}

function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ SIPHON_HOME: "/nonexistent-siphon-home" }), ...overrides };
}

// Safety net: if the guard ever let a private address through, the test must fail, not dial out.
const realFetch = globalThis.fetch;
beforeAll(() => {
  globalThis.fetch = Object.assign(
    (input: string | URL | Request, init?: RequestInit) => {
      const host = new URL(input instanceof Request ? input.url : input).hostname;
      if (host !== "127.0.0.1" && host !== "[::1]") {
        throw new Error(`test tried to reach a non-loopback address: ${host}`);
      }
      return realFetch(input, init);
    },
    { preconnect: realFetch.preconnect },
  );
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

const REFUSED_SPELLINGS = [
  "http://127.0.0.1/",
  "http://127.0.0.1:8080/admin",
  "https://127.0.0.1/",
  "http://127.255.255.254/",
  "http://2130706433/",
  "http://0177.0.0.1/",
  "http://0x7f.1/",
  "http://0x7f000001/",
  "http://0x7f.0x0.0x0.0x1/",
  "http://127.1/",
  "http://127.000.000.001/",
  "http://①②⑦.0.0.1/",
  "http://127。0。0。1/",
  "http://[::1]/",
  "http://[0:0:0:0:0:0:0:1]:8080/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[0:0:0:0:0:ffff:127.0.0.1]/",
  "http://[::127.0.0.1]/",
  "http://[::ffff:0:7f00:1]/",
  "http://[::]/",
  "http://0.0.0.0/",
  "http://0/",
  "http://localhost/",
  "http://LOCALHOST:3000/",
  "http://localhost./",
  "http://api.localhost/",
  "http://%6c%6fcalhost/",
  "http://evil@127.0.0.1/",
  "http://user:pass@[::1]:3000/",
  "http://127.0.0.1@evil.test/",
  "http://10.0.0.1/",
  "http://10.255.255.255/",
  "http://172.16.0.1/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
  "http://100.64.0.1/",
  "http://198.18.0.1/",
  "http://240.0.0.1/",
  "http://255.255.255.255/",
  "http://224.0.0.1/",
  "http://[fe80::1]/",
  "http://[fc00::1]/",
  "http://[fd12:3456::1]/",
  "http://[fec0::1]/",
  "http://[ff02::1]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[64:ff9b::a00:1]/",
  "http://[64:ff9b:1::1]/",
  "http://[2002:7f00:1::]/",
  "http://[2002:c0a8:101::1]/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
  "http://[100::1]/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://internal.example.test/",
  "http://mixed.example.test/",
  "http://v6private.example.test/",
  "http://mapped.example.test/",
];

describe("SSRF protection on: every spelling of an internal address is refused", () => {
  const engine = createSimpleEngine(testConfig(), { resolver: fakeResolver });

  test("the table is big enough to mean something", () => {
    expect(REFUSED_SPELLINGS.length).toBeGreaterThanOrEqual(40);
  });

  test.each(REFUSED_SPELLINGS)("%s -> 403 forbidden_url", async (raw) => {
    const error = await rejection(engine.fetch(raw, { timeoutMs: 2000 }));
    expect(error.type).toBe("forbidden_url");
    expect(error.status).toBe(403);
    expect(error.hint).toContain("SIPHON_SSRF_ALLOW");
  });

  test("the message names the resolved address so the caller sees why", async () => {
    const error = await rejection(engine.fetch("http://metadata.google.internal/"));
    expect(error.message).toContain("169.254.169.254");
    expect(error.message).toContain("linkLocal");
  });
});

describe("the guard lets public addresses through and pins them", () => {
  const guard = createSsrfGuard({ enabled: true, resolver: fakeResolver });

  test.each([
    ["http://8.8.8.8/", "8.8.8.8"],
    ["http://[2606:4700:4700::1111]/", "2606:4700:4700::1111"],
    ["http://public.example.test/", "93.184.216.34"],
    ["http://[2002:808:808::1]/", "2002:808:808::1"],
    ["http://[64:ff9b::808:808]/", "64:ff9b::808:808"],
  ])("%s connects to %s", async (raw, address) => {
    expect((await guard.check(parseTargetUrl(raw))).address).toBe(address);
  });

  test("a name that does not resolve is a network_error, not forbidden", async () => {
    const error = await rejection(guard.check(new URL("http://no-such-host.test/")));
    expect(error.type).toBe("network_error");
    expect(error.message).toContain("no-such-host.test");
  });

  test("refusalReason names the range and returns null for public addresses", () => {
    expect(refusalReason("127.0.0.1")).toBe("loopback");
    expect(refusalReason("::ffff:10.0.0.1")).toBe("IPv4-mapped private");
    expect(refusalReason("not an address")).toBe("unrecognised");
    expect(refusalReason("1.1.1.1")).toBeNull();
  });

  test("the allow-list exempts exactly host:port, nothing else", async () => {
    const allowing = createSsrfGuard({
      enabled: true,
      allow: parseAllowList(" 127.0.0.1:8080 , "),
      resolver: fakeResolver,
    });
    expect((await allowing.check(new URL("http://127.0.0.1:8080/"))).address).toBe("127.0.0.1");
    expect((await rejection(allowing.check(new URL("http://127.0.0.1:8081/")))).type).toBe("forbidden_url");
    expect((await rejection(allowing.check(new URL("http://127.0.0.1/")))).type).toBe("forbidden_url");
  });

  test("with protection off, names are still resolved so the connection can be pinned", async () => {
    const off = createSsrfGuard({ enabled: false, resolver: fakeResolver });
    expect(await off.check(new URL("http://internal.example.test/"))).toEqual({
      address: "10.1.2.3",
      family: 4,
    });
    expect((await off.check(new URL("http://127.0.0.1:1/"))).address).toBe("127.0.0.1");
  });
});

describe("redirects are checked at every hop", () => {
  let hits: string[] = [];
  const inner = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      hits.push(`inner ${new URL(req.url).pathname}`);
      return new Response("secret internal page");
    },
  });
  const outer = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(`outer ${path}`);
      const targets: Record<string, string> = {
        "/to-other-port": `http://127.0.0.1:${inner.port}/secret`,
        "/to-private": "http://10.0.0.1/",
        "/to-ipv6-loopback": `http://[::1]:${inner.port}/`,
        "/to-metadata": "http://169.254.169.254/latest/meta-data/",
        "/to-file": "file:///etc/passwd",
      };
      const location = targets[path];
      return location
        ? new Response(null, { status: 302, headers: { location } })
        : new Response("public page");
    },
  });
  afterAll(() => {
    inner.stop(true);
    outer.stop(true);
  });
  const engine = createSimpleEngine(testConfig({ ssrfAllow: `127.0.0.1:${outer.port}` }), {
    resolver: fakeResolver,
  });

  test("the allow-listed origin itself is fetched", async () => {
    const page = await engine.fetch(`http://127.0.0.1:${outer.port}/`);
    expect(new TextDecoder().decode(page.body)).toBe("public page");
  });

  test.each(["/to-other-port", "/to-private", "/to-ipv6-loopback", "/to-metadata", "/to-file"])(
    "a redirect %s is refused at the hop and the target is never contacted",
    async (path) => {
      hits = [];
      const error = await rejection(engine.fetch(`http://127.0.0.1:${outer.port}${path}`));
      expect(error.type).toBe("forbidden_url");
      expect(hits).toEqual([`outer ${path}`]);
    },
  );
});

describe("SSRF protection off", () => {
  test("a loopback server fetches fine", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("local ok") });
    try {
      const engine = createSimpleEngine(testConfig({ disableSsrfProtection: true }));
      const page = await engine.fetch(`http://127.0.0.1:${server.port}/`);
      expect(page.status).toBe(200);
      expect(new TextDecoder().decode(page.body)).toBe("local ok");
    } finally {
      server.stop(true);
    }
  });
});
