/**
 * Cold-start benchmark: what one `siphon fetch URL --no-cache` process costs against curl on the
 * same local page, and what `siphon --version` alone costs. The binary is the one users run
 * (`bun run build` first, dist/siphon); the page is a ~30 KB news article served on loopback.
 * Each round runs, one after the other, in an order rotated every round so that drift of the
 * machine touches each alike:
 * - curl: `curl -s URL > /dev/null`;
 * - version: `siphon --version`;
 * - fetch-new: `siphon fetch URL --no-cache` on a new SIPHON_HOME (the store is created and
 *   migrated: a first run);
 * - fetch-home: the same on a home that an earlier run made (an existing store).
 * Output goes to /dev/null, as curl's does; one untimed run of each checks the fetch's markdown
 * holds the article's text and warms the page cache. Wall times are from spawn to exit; CPU is
 * the child's user + system time, which another process's load disturbs less. The delta is the
 * median over rounds of fetch less curl in the same round. With --against, a second binary (an
 * older build) runs the same three siphon commands in the same rounds, so that a before/after
 * comparison meets the same load.
 *
 *   bun scripts/bench/cold.ts [--rounds 30] [--no-build] [--bin dist/siphon] [--against BIN] [--json]
 *
 * Targets (issue 28): fetch - curl <= 50 ms, --version <= 25 ms (medians).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { hasFlag, numberFlag } from "./flags.ts";
import { median, round1 } from "./stats.ts";

const rounds = numberFlag("rounds", 30);
const root = new URL("../..", import.meta.url).pathname;
/** The value after `--name`, or undefined. */
function stringFlag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const bin = resolve(root, stringFlag("bin") ?? "dist/siphon");
const againstFlag = stringFlag("against");
const against = againstFlag ? resolve(againstFlag) : undefined;

const FETCH_TARGET_MS = 50;
const VERSION_TARGET_MS = 25;
/** A sentence of the article body that the fetch's markdown must hold. */
const MARKER = "The reservoir's new intake tower draws from three depths";

/** A news article as publishers serve it: head metadata, inline CSS and JS, navigation, body, aside, footer. */
export function articleHtml(): string {
  const nav = Array.from(
    { length: 40 },
    (_, i) => `<li><a href="/section/${i}" class="nav-link">Section ${i + 1}</a></li>`,
  ).join("\n");
  const paragraph = (i: number) =>
    `<p>${i === 3 ? `${MARKER}, so the plant can choose the coldest, clearest water in every season. ` : ""}` +
    `Paragraph ${i + 1} of the report sets out how the utility weighed cost, supply and the river's health, ` +
    `quoting engineers, residents and the <a href="/people/${i}">regional water board</a>, and noting that ` +
    `the figures were checked against the <em>2023 supply survey</em> and the board's own published minutes, ` +
    `which remain available to anyone who asks at the town hall or reads them online.</p>`;
  const sections = Array.from(
    { length: 6 },
    (_, s) =>
      `<h2 id="part-${s}">Part ${s + 1}: what changes</h2>\n${Array.from({ length: 9 }, (_, p) => paragraph(s * 9 + p)).join("\n")}` +
      (s === 2
        ? `\n<ul>${Array.from({ length: 6 }, (_, i) => `<li>Milestone ${i + 1}: stage ${i + 1} of the works, due in spring</li>`).join("")}</ul>` +
          `\n<blockquote><p>"We built for the next fifty years, not the next five," the chief engineer said.</p></blockquote>`
        : "") +
      (s === 4
        ? `\n<table><thead><tr><th>Year</th><th>Supply (Ml/day)</th><th>Demand (Ml/day)</th></tr></thead><tbody>${Array.from(
            { length: 8 },
            (_, i) => `<tr><td>${2020 + i}</td><td>${410 + i * 7}</td><td>${380 + i * 9}</td></tr>`,
          ).join("")}</tbody></table>`
        : ""),
  ).join("\n");
  const related = Array.from(
    { length: 12 },
    (_, i) => `<li><a href="/news/related-${i}">Related story number ${i + 1} about the region</a></li>`,
  ).join("\n");
  return `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8"><title>Reservoir Upgrade Doubles the Valley's Water Supply | The Valley Times</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="A three-year upgrade of the valley reservoir doubles its supply.">
<meta property="og:title" content="Reservoir Upgrade Doubles the Valley's Water Supply">
<meta property="og:type" content="article"><meta property="og:image" content="/img/reservoir.jpg">
<meta property="article:published_time" content="2025-05-02T08:00:00Z">
<link rel="canonical" href="/news/2025/05/reservoir-upgrade"><link rel="stylesheet" href="/site.css">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Reservoir Upgrade Doubles the Valley's Water Supply","datePublished":"2025-05-02T08:00:00Z","author":{"@type":"Person","name":"Ana Ruiz"}}</script>
<style>body{font-family:Georgia,serif;margin:0}.nav-link{color:#222;text-decoration:none}article{max-width:42rem;margin:auto}aside{font-size:.9rem}</style>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());</script>
</head><body>
<header><a href="/" class="logo">The Valley Times</a><nav><ul>${nav}</ul></nav>
<form action="/search"><input name="q" placeholder="Search"><button>Go</button></form></header>
<main><article>
<h1>Reservoir Upgrade Doubles the Valley's Water Supply</h1>
<p class="byline">By <a href="/authors/ana-ruiz">Ana Ruiz</a> · <time datetime="2025-05-02T08:00:00Z">2 May 2025</time></p>
<figure><img src="/img/reservoir.jpg" alt="The reservoir at dawn"><figcaption>The reservoir at dawn.</figcaption></figure>
${sections}
<div class="share"><a href="/share/fb">Share on Facebook</a> <a href="/share/x">Share on X</a></div>
</article>
<aside><h3>Related</h3><ul>${related}</ul></aside></main>
<footer><p>© 2025 The Valley Times. All rights reserved.</p><ul>${nav}</ul></footer>
</body></html>`;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** The environment of every siphon run: the default configuration, loopback allowed. */
function siphonEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    // Settings of the shell running the benchmark must not change what is measured.
    if (value === undefined || name.startsWith("SIPHON_") || name === "DATABASE_URL" || name === "REDIS_URL")
      continue;
    env[name] = value;
  }
  return { ...env, SIPHON_HOME: home, DISABLE_SSRF_PROTECTION: "true" };
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** Runs `cmd` to its end with stdout to /dev/null; throws on a non-zero exit. */
async function timed(cmd: string[], env?: Record<string, string>): Promise<Sample> {
  const started = performance.now();
  const proc = Bun.spawn(cmd, { env, stdout: "ignore", stderr: "pipe" });
  const code = await proc.exited;
  const wallMs = performance.now() - started;
  if (code !== 0)
    throw new Error(`${cmd.join(" ")} exited ${code}: ${await new Response(proc.stderr).text()}`);
  const cpu = proc.resourceUsage()?.cpuTime;
  return { wallMs, cpuMs: cpu ? (Number(cpu.user) + Number(cpu.system)) / 1000 : Number.NaN };
}

/** Fetches the page once with `binary` and checks its markdown holds the article's text. */
async function checkFetch(binary: string, url: string, home: string): Promise<void> {
  // The page is served by this process, so the check must not block its event loop (no spawnSync).
  const check = Bun.spawn([binary, "fetch", url, "--no-cache"], {
    env: siphonEnv(home),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [markdown, errors, code] = await Promise.all([
    new Response(check.stdout).text(),
    new Response(check.stderr).text(),
    check.exited,
  ]);
  if (code !== 0 || !markdown.includes(MARKER))
    throw new Error(`${binary} fetch did not give the article (exit ${code}): ${errors}`);
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

async function main() {
  if (!hasFlag("no-build") && !stringFlag("bin")) {
    // The build's output goes to stderr: stdout carries only the figures (--json).
    const built = Bun.spawnSync(["bun", "run", "build"], { cwd: root, stdout: "pipe", stderr: "inherit" });
    process.stderr.write(built.stdout);
    if (built.exitCode !== 0) throw new Error("bun run build failed");
  }
  const html = articleHtml();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  const url = `http://127.0.0.1:${server.port}/news/2025/05/reservoir-upgrade`;
  const homes: string[] = [];
  const newHome = () => {
    const home = mkdtempSync(join(tmpdir(), "siphon-bench-cold-"));
    homes.push(home);
    return home;
  };
  const existing = newHome();
  const loadBefore = loadAverage();
  try {
    // Untimed: the fetch gives the article, and the binary's pages are in the page cache.
    for (const binary of against ? [bin, against] : [bin]) await checkFetch(binary, url, existing);
    const siphonKinds = (binary: string, suffix: string) => ({
      [`version${suffix}`]: () => timed([binary, "--version"], siphonEnv(existing)),
      [`fetch-new${suffix}`]: () => timed([binary, "fetch", url, "--no-cache"], siphonEnv(newHome())),
      [`fetch-home${suffix}`]: () => timed([binary, "fetch", url, "--no-cache"], siphonEnv(existing)),
    });
    const kinds: Record<string, () => Promise<Sample>> = {
      curl: () => timed(["curl", "-s", url]),
      ...siphonKinds(bin, ""),
      ...(against ? siphonKinds(against, "@against") : {}),
    };
    const names = Object.keys(kinds);
    const samples = new Map<string, Sample[]>(names.map((n) => [n, []]));
    for (const name of names) await kinds[name]?.();
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + i) % names.length] as string;
        samples.get(name)?.push(await (kinds[name] as () => Promise<Sample>)());
      }
      for (const home of homes.splice(1)) rmSync(home, { recursive: true, force: true });
    }

    const wall = (n: string) => (samples.get(n) ?? []).map((s) => s.wallMs);
    const curl = wall("curl");
    const ms = Object.fromEntries(
      names.map((n) => [
        n,
        {
          median: round1(median(wall(n))),
          p90: round1(percentile(wall(n), 90)),
          min: round1(Math.min(...wall(n))),
          cpuMedian: round1(median((samples.get(n) ?? []).map((s) => s.cpuMs))),
        },
      ]),
    );
    // Paired by round: what the fetch cost beyond curl under the same load.
    const fetchMinusCurlMs = Object.fromEntries(
      names
        .filter((n) => n.startsWith("fetch"))
        .map((n) => [n, round1(median(wall(n).map((t, i) => t - (curl[i] as number))))]),
    );
    const versionMs = median(wall("version"));
    const worstDelta = Math.max(fetchMinusCurlMs["fetch-new"] ?? 0, fetchMinusCurlMs["fetch-home"] ?? 0);
    const result = {
      rounds,
      page: { url, bytes: Buffer.byteLength(html) },
      binary: bin,
      against: against ?? null,
      ms,
      fetchMinusCurlMs,
      fetchOverCurl: round1(median(wall("fetch-home")) / median(curl)),
      targets: {
        fetchMinusCurlMs: FETCH_TARGET_MS,
        versionMs: VERSION_TARGET_MS,
        fetchMet: worstDelta <= FETCH_TARGET_MS,
        versionMet: versionMs <= VERSION_TARGET_MS,
      },
      loadAverage: { before: loadBefore, after: loadAverage() },
    };
    if (hasFlag("json")) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    console.log(`${rounds} rounds, order rotated each round; page ${result.page.bytes} bytes on loopback`);
    console.log(`binary ${bin}${against ? `; @against: ${against}` : ""}`);
    console.log("                         median     p90     min   cpu median (ms)   - curl (paired)");
    for (const n of names) {
      const s = ms[n] as (typeof ms)[string];
      const delta = fetchMinusCurlMs[n] === undefined ? "" : String(fetchMinusCurlMs[n]).padStart(18);
      console.log(
        `${n.padEnd(22)} ${String(s.median).padStart(8)} ${String(s.p90).padStart(7)} ${String(s.min).padStart(7)} ${String(s.cpuMedian).padStart(12)}${delta}`,
      );
    }
    const met = (ok: boolean) => (ok ? "met" : "NOT met");
    console.log(
      `fetch - curl: new home ${fetchMinusCurlMs["fetch-new"]} ms, existing home ${fetchMinusCurlMs["fetch-home"]} ms ` +
        `(target <= ${FETCH_TARGET_MS} ms: ${met(result.targets.fetchMet)}); fetch / curl ${result.fetchOverCurl}x`,
    );
    console.log(
      `--version: ${round1(versionMs)} ms (target <= ${VERSION_TARGET_MS} ms: ${met(result.targets.versionMet)})`,
    );
    console.log(`load average: before ${result.loadAverage.before}, after ${result.loadAverage.after}`);
  } finally {
    server.stop(true);
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
