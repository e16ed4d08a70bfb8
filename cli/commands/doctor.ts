import { defineCommand } from "citty";
import { type Config, loadConfig } from "../../src/config.ts";
import { toSiphonError } from "../../src/errors.ts";
import { describeStore } from "../../src/store/describe.ts";
import { log, writeStdout } from "../output.ts";

/** One check's outcome: what was checked, whether it passed, what was found, and what to do. */
interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

const SETUP = "Run bash scripts/setup.sh (Debian), or install chromium and chromium-headless-shell.";

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

/** A Chromium of `kind` is found and starts, and is closed again. */
async function chromium(config: Config, kind: "browser" | "stealth"): Promise<Check> {
  const name = kind === "browser" ? "headless shell (renders)" : "Chromium (stealth)";
  try {
    const { findChromium, launchBrowser } = await import("../../src/fetch/browser/launch.ts");
    const path = findChromium(config, kind);
    const { value: launched, ms } = await timed(() => launchBrowser(config, { kind }));
    await launched.close();
    return { check: name, ok: true, detail: `${path} starts (${ms} ms)` };
  } catch (raw) {
    const error = toSiphonError(raw);
    return { check: name, ok: false, detail: error.message, fix: error.hint ?? SETUP };
  }
}

async function store(config: Config): Promise<Check> {
  const what = describeStore(config);
  try {
    const { openStore } = await import("../../src/store/index.ts");
    const { value: opened, ms } = await timed(() => openStore(config));
    await opened.close();
    return {
      check: "store",
      ok: true,
      detail: `${what}${config.redisUrl ? " with Redis" : ""} opens and is migrated (${ms} ms)`,
    };
  } catch (raw) {
    const error = toSiphonError(raw);
    return {
      check: "store",
      ok: false,
      detail: `${what}${config.redisUrl ? " with Redis" : ""}: ${error.message}`,
      fix:
        config.databaseUrl || config.redisUrl
          ? "Check that PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) are running and reachable from here."
          : `Check that ${config.home} is a folder you can write to (SIPHON_HOME).`,
    };
  }
}

function ssrf(config: Config): Check {
  if (config.disableSsrfProtection) {
    return {
      check: "SSRF protection",
      ok: false,
      detail: "off (DISABLE_SSRF_PROTECTION): the server may fetch loopback and private addresses",
      fix: "Unset DISABLE_SSRF_PROTECTION, and list the internal origins you trust in SIPHON_SSRF_ALLOW instead.",
    };
  }
  return {
    check: "SSRF protection",
    ok: true,
    detail: `on${config.ssrfAllow ? `, allowing ${config.ssrfAllow}` : ""}`,
  };
}

/** The server's address is free to listen on (another process there would refuse siphon serve). */
function port(config: Config): Check {
  try {
    const server = Bun.listen({ hostname: config.host, port: config.port, socket: { data() {} } });
    server.stop(true);
    return { check: "port", ok: true, detail: `${config.host}:${config.port} is free for siphon serve` };
  } catch (raw) {
    return {
      check: "port",
      ok: false,
      detail: `${config.host}:${config.port} is taken: ${(raw as Error).message}`,
      fix: "Stop what listens there, or give siphon serve --port N (PORT).",
    };
  }
}

export default defineCommand({
  meta: {
    name: "doctor",
    description:
      "Check this machine for siphon: Chromium and its headless shell start, the store opens and migrates (PostgreSQL and Redis when configured), SSRF protection, the server's port; each failure with a fix",
  },
  args: {
    json: { type: "boolean", description: "Print [{check, ok, detail, fix?}] instead of lines" },
  },
  async run({ args }) {
    const config = loadConfig();
    const checks = [
      await chromium(config, "browser"),
      await chromium(config, "stealth"),
      await store(config),
      ssrf(config),
      port(config),
    ];
    if (args.json) await writeStdout(`${JSON.stringify(checks, null, 2)}\n`);
    else {
      for (const c of checks) {
        const line = `${c.check}: ${c.detail}`;
        if (c.ok) log.success(line);
        else log.error(`${line}${c.fix ? `\n  fix: ${c.fix}` : ""}`);
      }
    }
    // Exit 1 when something needs fixing, so a script can gate on it.
    return checks.every((c) => c.ok) ? 0 : 1;
  },
});
