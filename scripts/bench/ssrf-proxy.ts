/**
 * What the browser's SSRF proxy adds to a warm render. Three pools render the same pages in
 * turn, one render each, so that the machine's mood falls on all alike; the cost is the median
 * of the differences between neighbouring renders, which a busy machine disturbs far less than
 * the medians themselves:
 *
 * - "protection off": no guard, no proxy (DISABLE_SSRF_PROTECTION=true; the render benchmark's mode)
 * - "request filter only": the guard checks each request of the page, Chromium connects by itself
 *   (what protection on meant before the proxy)
 * - "filter + proxy": the same, and every connection goes through the guard proxy (protection on)
 *
 * Pages: the fixture SPA (/spa, one document) and a page with eight same-origin subresources.
 *
 *   bun scripts/bench/ssrf-proxy.ts [--renders N]
 *
 * --renders: measured renders per mode and page (default 50)
 */
import type { Config } from "../../src/config.ts";
import { loadConfig } from "../../src/config.ts";
import { createBrowserEngine } from "../../src/fetch/browser/engine.ts";
import { launchBrowser } from "../../src/fetch/browser/launch.ts";
import { type BrowserPool, createBrowserPool } from "../../src/fetch/browser/pool.ts";
import type { FetchEngine } from "../../src/fetch/types.ts";
import { startFixtureSite } from "../../test/helpers/fixture-site.ts";
import { numberFlag } from "./flags.ts";
import { median } from "./stats.ts";

const WARM_UP = 10;
const renders = numberFlag("renders", 50);

const SUBRESOURCES = 8;
const assets = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/asset/")) {
      return new Response(`/* ${path} */ window.loaded = (window.loaded || 0) + 1;`, {
        headers: { "content-type": "text/javascript", "cache-control": "no-store" },
      });
    }
    const scripts = Array.from({ length: SUBRESOURCES }, (_, i) => `<script src="/asset/${i}.js"></script>`);
    return new Response(
      `<!DOCTYPE html><html><head><title>Assets</title>${scripts.join("")}</head>` +
        `<body><main><h1>Assets page</h1><p>Eight scripts were loaded.</p></main></body></html>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  },
});
const site = await startFixtureSite();
const pages = [
  { name: "fixture /spa", url: `${site.url}/spa`, marker: '<div id="root"><main>' },
  { name: `page + ${SUBRESOURCES} scripts`, url: `http://127.0.0.1:${assets.port}/`, marker: "Assets page" },
];

const home = { SIPHON_HOME: "/nonexistent/siphon-bench-home" };
const guarded = loadConfig(home, {
  disableSsrfProtection: false,
  ssrfAllow: `${new URL(site.url).host},127.0.0.1:${assets.port}`,
});
const off = loadConfig(home, { disableSsrfProtection: true });

interface Mode {
  name: string;
  pool: BrowserPool;
  engine: FetchEngine;
  latencies: Map<string, number[]>;
}

function mode(name: string, config: Config, launchConfig: Config): Mode {
  const pool = createBrowserPool(config, {
    launch: (_config, kind) => launchBrowser(launchConfig, { kind }),
  });
  return { name, pool, engine: createBrowserEngine(config, pool, { stealth: false }), latencies: new Map() };
}

const modes = [
  mode("protection off", off, off),
  // The engine guards every request; the browser is launched as if protection were off: no proxy.
  mode("request filter only", guarded, off),
  mode("filter + proxy", guarded, guarded),
];

async function render(m: Mode, page: (typeof pages)[number]): Promise<number> {
  const started = performance.now();
  const result = await m.engine.fetch(page.url);
  const ms = performance.now() - started;
  if (!new TextDecoder().decode(result.body).includes(page.marker)) {
    throw new Error(`${m.name}: ${page.name} was not rendered`);
  }
  return ms;
}

const p = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

try {
  for (const m of modes) for (const page of pages) for (let i = 0; i < WARM_UP; i++) await render(m, page);
  for (let i = 0; i < renders; i++) {
    for (const page of pages) {
      for (const m of modes)
        m.latencies.set(page.name, [...(m.latencies.get(page.name) ?? []), await render(m, page)]);
    }
  }
  console.log(`SSRF proxy cost on warm renders (${renders} per mode and page, concurrency 1)\n`);
  console.log("| page | mode | p50 ms | p95 ms | median paired difference vs request filter only, ms |");
  console.log("|---|---|---:|---:|---:|");
  for (const page of pages) {
    const base = modes[1]!.latencies.get(page.name)!;
    for (const m of modes) {
      const list = m.latencies.get(page.name)!;
      const sorted = [...list].sort((a, b) => a - b);
      const delta = median(list.map((ms, i) => ms - base[i]!));
      console.log(
        `| ${page.name} | ${m.name} | ${median(list).toFixed(1)} | ${p(sorted, 0.95).toFixed(1)} | ` +
          `${delta >= 0 ? "+" : ""}${delta.toFixed(1)} |`,
      );
    }
  }
} finally {
  await Promise.all(modes.map((m) => m.pool.close()));
  await site.stop();
  assets.stop(true);
}
