import { accessSync, constants, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import type { Config } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { STEALTH_LAUNCH_ARGS } from "./stealth.ts";

/** Where Chromium usually lives on Linux, tried in order when config.chromiumPath is empty. */
const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

const INSTALL_HINT = "Install chromium (apt-get install chromium) or set SIPHON_CHROMIUM_PATH.";

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
  /** Closes (or disconnects from) the browser, kills leftovers and removes the profile. Never throws. */
  close(): Promise<void>;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium executable to launch: config.chromiumPath, else the first usual path that exists.
 * @throws SiphonError browser_unavailable when none is executable
 */
export function findChromium(config: Config): string {
  if (config.chromiumPath) {
    if (isExecutable(config.chromiumPath)) return config.chromiumPath;
    throw new SiphonError(
      "browser_unavailable",
      `The Chromium set in SIPHON_CHROMIUM_PATH (${config.chromiumPath}) is not an executable file.`,
      { hint: INSTALL_HINT },
    );
  }
  const found = CANDIDATES.find(isExecutable);
  if (found) return found;
  throw new SiphonError("browser_unavailable", "No Chromium was found, so pages cannot be rendered.", {
    hint: INSTALL_HINT,
  });
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

function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

async function connect(config: Config): Promise<LaunchedBrowser> {
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
  // The remote browser is not ours to close: only drop the connection.
  return { browser, close: () => withTimeout(browser.disconnect(), 5_000) };
}

/**
 * Launches headless Chromium with a fresh profile folder, or connects to config.browserWs when set.
 * puppeteer-core is imported here, lazily, so the simple engine never loads it.
 * @throws SiphonError browser_unavailable when Chromium is missing or will not start
 */
export async function launchBrowser(config: Config): Promise<LaunchedBrowser> {
  if (config.browserWs) return connect(config);
  const executablePath = findChromium(config);
  const puppeteer = (await import("puppeteer-core")).default;
  const userDataDir = await mkdtemp(join(tmpdir(), "siphon-chromium-"));
  const args = [...new Set([...BASE_ARGS, ...STEALTH_LAUNCH_ARGS])];
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
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
    throw new SiphonError("browser_unavailable", `Chromium (${executablePath}) could not be started.`, {
      hint: `${INSTALL_HINT} Run it by hand with --headless to see why it fails.`,
      cause: error,
    });
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
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
    })();
    return closing;
  };
  return { browser, userDataDir, close };
}
