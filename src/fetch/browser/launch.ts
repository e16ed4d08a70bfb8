import { accessSync, constants, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions } from "puppeteer-core";
import type { Config } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { createSsrfGuard, parseAllowList, type Resolver } from "../ssrf.ts";
import { type RendererWatch, rendererMemoryArgs, watchRenderers } from "./memory.ts";
import { type GuardProxy, PROXY_BYPASS_LIST, proxyArgs, startGuardProxy } from "./proxy.ts";
import { STEALTH_LAUNCH_ARGS } from "./stealth.ts";
import { settledWithin, withTimeout } from "./timeouts.ts";

/** Where full Chromium usually lives on Linux, tried in order when config.chromiumPath is empty. */
const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/**
 * Where Chromium's headless shell usually lives: Debian's chromium-headless-shell (its binary
 * first: the /usr/bin script runs it without exec, so the browser would not be our child),
 * then Chrome for Testing's.
 */
const SHELL_CANDIDATES = [
  "/usr/lib/chromium/chromium-headless-shell",
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chrome-headless-shell",
];

/**
 * Which browser a request needs. Plain renders ("browser") run on Chromium's headless shell
 * when it is installed: without the full browser's UI layers it spends about half the CPU per
 * page (see docs/performance.md). Stealth's evasions were measured on full
 * Chromium's new headless mode, which already looks like a desktop Chrome in ways the shell
 * does not, so "stealth" prefers full Chromium.
 */
export type BrowserKind = "browser" | "stealth";

const INSTALL_HINT =
  "Install Chromium (apt-get install chromium chromium-headless-shell) or set SIPHON_CHROMIUM_PATH.";

/** Flags measured to work on these machines (see STACK.md); the rest of the defaults are puppeteer's. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

const BASE_ARGS = [
  ...CHROMIUM_ARGS,
  // Hides navigator.webdriver, the first thing bot checks read; cheap for every page, not only stealth.
  "--disable-blink-features=AutomationControlled",
  // Pages are reused across requests: a page left behind must not live on, frozen, in the
  // back-forward cache of the tab (puppeteer merges this with its own disabled features).
  "--disable-features=BackForwardCache",
];

/** A browser this process launched or connected to, and how to let go of it. */
export interface LaunchedBrowser {
  browser: Browser;
  /** The profile folder of a launched browser (removed by close); undefined when connected. */
  userDataDir?: string;
  /**
   * The SSRF proxy every connection of the browser goes through; undefined when SSRF protection
   * is off, or for a connected browser that cannot reach this process's 127.0.0.1.
   */
  proxy?: GuardProxy;
  /**
   * What every context must be opened with: a connected browser takes its proxy per context,
   * since launch flags cannot reach it; a launched one has the proxy in its flags.
   */
  contextOptions?: BrowserContextOptions;
  /** The memory ceiling of a launched browser's renderers (see memory.ts); undefined when connected. */
  memory?: RendererWatch;
  /** Closes (or disconnects from) the browser, kills leftovers, removes the profile and stops the proxy. Never throws. */
  close(): Promise<void>;
}

/** Replaceable collaborators of a launch (tests). */
export interface LaunchOptions {
  /** Which browser to launch (see findChromium); default "browser". */
  kind?: BrowserKind;
  /** Replaces the system DNS resolver of the proxy's SSRF guard. */
  resolver?: Resolver;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function configured(path: string, setting: string): string {
  if (isExecutable(path)) return path;
  throw new SiphonError(
    "browser_unavailable",
    `The Chromium set in ${setting} (${path}) is not an executable file.`,
    {
      hint: INSTALL_HINT,
    },
  );
}

/**
 * The Chromium executable to launch for `kind`. "browser": config.chromiumShellPath, else
 * config.chromiumPath, else the first headless shell found, else the first full Chromium.
 * "stealth": config.chromiumPath, else the first full Chromium found, else a headless shell.
 * So SIPHON_CHROMIUM_PATH alone puts every render on that one browser.
 * @throws SiphonError browser_unavailable when none is executable
 */
export function findChromium(config: Config, kind: BrowserKind = "browser"): string {
  if (kind === "browser" && config.chromiumShellPath) {
    return configured(config.chromiumShellPath, "SIPHON_CHROMIUM_SHELL_PATH");
  }
  if (config.chromiumPath) return configured(config.chromiumPath, "SIPHON_CHROMIUM_PATH");
  const order =
    kind === "browser" ? [...SHELL_CANDIDATES, ...CANDIDATES] : [...CANDIDATES, ...SHELL_CANDIDATES];
  const found = order.find(isExecutable);
  if (found) return found;
  throw new SiphonError("browser_unavailable", "No Chromium was found, so pages cannot be rendered.", {
    hint: INSTALL_HINT,
  });
}

/** Whether `path` is Chromium's headless shell, which takes --headless rather than --headless=new. */
export function isHeadlessShell(path: string): boolean {
  return /headless[-_]shell/i.test(basename(path));
}

/** Pids of live processes whose command line carries `marker` (Linux /proc; empty elsewhere). */
export function processesWith(marker: string): number[] {
  if (!existsSync("/proc")) return [];
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** How long a connected browser gets to load the proxy's probe page. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Whether a connected browser reaches the proxy: one in another container or on another host
 * has a 127.0.0.1 of its own. Never throws.
 */
async function reachesProxy(
  browser: Browser,
  proxy: GuardProxy,
  options: BrowserContextOptions,
): Promise<boolean> {
  let context: BrowserContext | undefined;
  let gaveUp = false;
  const probe = async () => {
    const opened = await browser.createBrowserContext(options);
    // Opened after we gave up: not ours to leave in the remote browser.
    if (gaveUp) void opened.close().catch(() => {});
    context = opened;
    const page = await opened.newPage();
    const response = await page.goto(proxy.probeUrl, { timeout: PROBE_TIMEOUT_MS });
    return (await response?.text()) === proxy.probeToken;
  };
  try {
    // Opening the context or its page has no timeout of its own short of the protocol's.
    return await settledWithin(probe(), 2 * PROBE_TIMEOUT_MS, "the proxy probe");
  } catch {
    return false;
  } finally {
    gaveUp = true;
    await context?.close().catch(() => {});
  }
}

/**
 * Puts a connected browser behind the SSRF proxy, context by context, when it can reach it;
 * otherwise only the request filter of each page guards it (see docs/fetching.md). Either way its
 * WebRTC may use UDP: only a launch flag turns that off.
 */
async function proxyConnected(
  browser: Browser,
  config: Config,
  options: LaunchOptions,
): Promise<{ proxy?: GuardProxy; contextOptions?: BrowserContextOptions }> {
  const proxy = await startProxy(config, options);
  if (!proxy) return {};
  const contextOptions = { proxyServer: proxy.url, proxyBypassList: [PROXY_BYPASS_LIST] };
  if (await reachesProxy(browser, proxy, contextOptions)) return { proxy, contextOptions };
  await proxy.close();
  return {};
}

async function connect(config: Config, options: LaunchOptions): Promise<LaunchedBrowser> {
  const puppeteer = (await import("puppeteer-core")).default;
  let browser: Browser;
  try {
    browser = await puppeteer.connect({
      browserWSEndpoint: config.browserWs,
      defaultViewport: null,
      protocolTimeout: config.browserTimeoutMs + 10_000,
    });
  } catch (error) {
    throw new SiphonError("browser_unavailable", `Could not connect to the browser at ${config.browserWs}.`, {
      hint: "Check that the browser service is running, or unset SIPHON_BROWSER_WS to launch Chromium.",
      cause: error,
    });
  }
  let proxied: Awaited<ReturnType<typeof proxyConnected>>;
  try {
    proxied = await proxyConnected(browser, config, options);
  } catch (error) {
    await withTimeout(browser.disconnect(), 5_000);
    throw error;
  }
  return {
    browser,
    ...proxied,
    // The remote browser is not ours to close: only drop the connection.
    close: async () => {
      await withTimeout(browser.disconnect(), 5_000);
      await proxied.proxy?.close();
    },
  };
}

/**
 * Starts the SSRF proxy of a browser, unless protection is off (then the browser connects
 * directly, at no cost). SIPHON_SSRF_ALLOW origins are exempt inside the proxy, not bypassed.
 */
function startProxy(config: Config, options: LaunchOptions): Promise<GuardProxy | undefined> {
  if (config.disableSsrfProtection) return Promise.resolve(undefined);
  const guard = createSsrfGuard({
    enabled: true,
    allow: parseAllowList(config.ssrfAllow),
    resolver: options.resolver,
  });
  return startGuardProxy(guard).catch((error: unknown) => {
    throw new SiphonError("browser_unavailable", "The SSRF proxy of the browser could not be started.", {
      hint: "Check that this process may listen on 127.0.0.1.",
      cause: error,
    });
  });
}

/**
 * Launches headless Chromium (the executable findChromium picks for options.kind) with a fresh
 * profile folder, or connects to config.browserWs when set, whatever the kind.
 * A launched browser reaches the network only through its SSRF proxy (see startGuardProxy): the
 * guard checks every connection it makes, popups and WebSockets included, and Chromium never
 * resolves a page's host names itself; a connected one, per context, when it can reach the proxy. puppeteer-core and the proxy are imported here, lazily,
 * so the simple engine never loads them.
 * @throws SiphonError browser_unavailable when Chromium is missing or will not start
 */
export async function launchBrowser(config: Config, options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  if (config.browserWs) return connect(config, options);
  const executablePath = findChromium(config, options.kind);
  const puppeteer = (await import("puppeteer-core")).default;
  const userDataDir = await mkdtemp(join(tmpdir(), "siphon-chromium-"));
  const proxy = await startProxy(config, options).catch(async (error: unknown) => {
    await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
    throw error;
  });
  const args = [
    ...new Set([
      ...BASE_ARGS,
      ...STEALTH_LAUNCH_ARGS,
      ...rendererMemoryArgs(config.browserRendererMemoryMb),
      ...(proxy ? proxyArgs(proxy) : []),
    ]),
  ];
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: isHeadlessShell(executablePath) ? "shell" : true,
      pipe: true,
      userDataDir,
      args,
      // --enable-automation shows in navigator.webdriver and the UI; nothing here needs it.
      ignoreDefaultArgs: ["--enable-automation"],
      defaultViewport: null,
      downloadBehavior: { policy: "deny" },
      // Shutdown belongs to the server and the CLI (which await pool.close()), not to signal handlers.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 30_000,
      // A hung renderer must not stall a request past its own timeout for puppeteer's 180 s default.
      protocolTimeout: config.browserTimeoutMs + 10_000,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
    await proxy?.close();
    throw new SiphonError("browser_unavailable", `Chromium (${executablePath}) could not be started.`, {
      hint: `${INSTALL_HINT} Run it by hand with --headless to see why it fails.`,
      cause: error,
    });
  }

  const pid = browser.process()?.pid;
  const memory = pid === undefined ? undefined : watchRenderers(pid, config.browserRendererMemoryMb);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      memory?.close();
      const child = browser.process();
      await withTimeout(browser.close(), 5_000);
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await withTimeout(new Promise((resolve) => child.once("exit", resolve)), 2_000);
      }
      // Helpers (zygote, renderers, utilities) of a killed browser can outlive it for a moment;
      // they carry the unique profile path, so only this browser's processes match.
      for (const pid of processesWith(userDataDir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      // Last, once no page can be loading through it (Chromium never falls back to a direct connection).
      await proxy?.close();
    })();
    return closing;
  };
  return { browser, userDataDir, proxy, memory, close };
}
