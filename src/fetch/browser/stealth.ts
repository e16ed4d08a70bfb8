import type { Browser, CDPSession, Page, Protocol, WebWorker } from "puppeteer-core";
import { type StealthScriptConfig, stealthScript } from "./stealth-script.ts";

const versions = new WeakMap<Browser, Promise<string>>();

/** browser.version() ("Chrome/156.0...."), asked once per browser: it is a CDP round trip. */
export function browserVersion(browser: Browser): Promise<string> {
  let version = versions.get(browser);
  if (!version) {
    version = browser.version();
    versions.set(browser, version);
    // A call that failed (the browser busy or going away) is asked again by the next request.
    version.catch(() => versions.delete(browser));
  }
  return version;
}

/**
 * Stealth: make a headless Chromium page answer the questions bot checks ask
 * the way a desktop Chrome does. Signals are fixed at the lowest level that
 * can fix them: launch flags, then CDP overrides (native, so invisible to page
 * scripts and applied to every frame and request), and only then JavaScript
 * patches installed before any page script (see stealth-script.ts).
 *
 * Measured on Debian's Chromium 156 (new headless; old headless is gone from
 * the browser binary): plugins, mimeTypes, window.chrome and a consistent
 * notification permission are already right. What gives it away is
 * navigator.webdriver, "HeadlessChrome" in the user agent, the SwiftShader
 * WebGL renderer, an 800x600 screen smaller than the window, with an
 * emulated viewport an outer window smaller than the inner one, and workers
 * that report the real CPU count, platform and languages.
 */

/**
 * Launch flags that help every page look less automated. Safe for non-stealth
 * browsers too: they change nothing a page's content depends on.
 */
export const STEALTH_LAUNCH_ARGS: string[] = [
  // navigator.webdriver becomes false natively, in every frame and worker.
  "--disable-blink-features=AutomationControlled",
  // Headless defaults to an 800x600 window: a size no desktop has had for years.
  "--window-size=1280,800",
  // ...and to an 800x600 screen, smaller than that window; a common monitor with a taskbar.
  "--screen-info={1920x1080 workAreaBottom=40}",
];

/** Desktop platforms stealth can impersonate. */
export type StealthPlatform = "Windows" | "macOS" | "Linux";

/** Options for applyStealth. */
export interface StealthOptions {
  /** The user agent to present, e.g. from stealthUserAgent(). */
  userAgent: string;
  /** navigator.languages, most preferred first (match the Accept-Language header). */
  languages: string[];
  /** Used when the user agent names no platform: Windows, macOS or Linux (default Windows). */
  platform?: string;
}

interface PlatformProfile {
  /** The platform part of the user agent string. */
  uaToken: string;
  /** navigator.platform */
  navigatorPlatform: string;
  /** Sec-CH-UA-Platform and its version */
  hintPlatform: string;
  platformVersion: string;
  /** A mainstream integrated GPU as Chrome reports it through ANGLE on this platform. */
  webglVendor: string;
  webglRenderer: string;
}

const PROFILES: Record<StealthPlatform, PlatformProfile> = {
  Windows: {
    uaToken: "Windows NT 10.0; Win64; x64",
    navigatorPlatform: "Win32",
    hintPlatform: "Windows",
    platformVersion: "10.0.0",
    webglVendor: "Google Inc. (Intel)",
    webglRenderer: "ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11)",
  },
  macOS: {
    uaToken: "Macintosh; Intel Mac OS X 10_15_7",
    navigatorPlatform: "MacIntel",
    hintPlatform: "macOS",
    platformVersion: "14.6.1",
    webglVendor: "Google Inc. (Intel Inc.)",
    webglRenderer: "ANGLE (Intel Inc., Intel(R) Iris(TM) Plus Graphics 655, OpenGL 4.1)",
  },
  Linux: {
    uaToken: "X11; Linux x86_64",
    navigatorPlatform: "Linux x86_64",
    hintPlatform: "Linux",
    platformVersion: "6.1.0",
    webglVendor: "Google Inc. (Intel)",
    webglRenderer: "ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)",
  },
};

/** Values a typical desktop reports; the real machine may be a 2-core container. */
const HARDWARE_CONCURRENCY = 8;
const DEVICE_MEMORY_GB = 8;

function normalisePlatform(platform: string | undefined): StealthPlatform {
  const name = (platform ?? "").toLowerCase();
  if (/^mac|darwin/.test(name)) return "macOS";
  if (name.startsWith("linux")) return "Linux";
  return "Windows";
}

/** The platform a user agent string claims, else the given fallback. */
function platformOf(userAgent: string, fallback: string | undefined): StealthPlatform {
  if (/Windows NT/.test(userAgent)) return "Windows";
  if (/Macintosh|Mac OS X/.test(userAgent)) return "macOS";
  if (/Linux|X11/.test(userAgent) && !/Android/.test(userAgent)) return "Linux";
  return normalisePlatform(fallback);
}

/** "156.0.8078.79" from "Chrome/156.0.8078.79", "HeadlessChrome/156..." or the bare version. */
function fullVersionOf(version: string): string | undefined {
  return /(\d+(?:\.\d+){0,3})/.exec(version)?.[1];
}

/**
 * A desktop Chrome user agent for the real browser's major version, without
 * "Headless". Chrome reduces the minor parts to 0.0.0 in the string, so do we.
 * @param chromeVersion what browser.version() returns, e.g. "Chrome/156.0.8078.79"
 * @param platform Windows (default), macOS or Linux
 */
export function stealthUserAgent(chromeVersion: string, platform?: string): string {
  const major = fullVersionOf(chromeVersion)?.split(".")[0] ?? "0";
  const { uaToken } = PROFILES[normalisePlatform(platform)];
  return `Mozilla/5.0 (${uaToken}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/**
 * Chrome's brand list: the real brands plus a "GREASE" brand whose spelling,
 * version and position derive from the major version, so a list that does not
 * follow the rule is itself a tell.
 */
function brandList(
  major: number,
  version: (brandVersion: string) => string,
): Protocol.Emulation.UserAgentBrandVersion[] {
  const chars = [" ", "(", ":", "-", ".", "/", ")", ";", "=", "?", "_"];
  const greaseVersions = ["8", "99", "24"];
  const orders = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  const grease = {
    brand: `Not${chars[major % 11]}A${chars[(major + 1) % 11]}Brand`,
    version: `${greaseVersions[major % 3]}`,
  };
  const brands = [grease, { brand: "Chromium", version: "" }, { brand: "Google Chrome", version: "" }];
  const ordered: Protocol.Emulation.UserAgentBrandVersion[] = [];
  orders[major % 6]!.forEach((position, i) => {
    const { brand, version: greased } = brands[i]!;
    ordered[position] = { brand, version: i === 0 ? version(greased) : version(String(major)) };
  });
  return ordered;
}

/**
 * Client hints (navigator.userAgentData and Sec-CH-UA-* headers) that agree
 * with a Chrome user agent; undefined for a non-Chrome one, which has none.
 */
export function stealthClientHints(
  userAgent: string,
  browserVersion: string,
  platform?: string,
): Protocol.Emulation.UserAgentMetadata | undefined {
  const major = /Chrome\/(\d+)/.exec(userAgent)?.[1];
  if (!major || /Edg\/|OPR\//.test(userAgent)) return undefined;
  const full = fullVersionOf(browserVersion) ?? `${major}.0.0.0`;
  // The real build's full version only if it is the same major as the user agent claims.
  const fullVersion = full.startsWith(`${major}.`) ? full : `${major}.0.0.0`;
  const profile = PROFILES[platformOf(userAgent, platform)];
  return {
    brands: brandList(Number(major), (v) => v),
    fullVersionList: brandList(Number(major), (v) => (v === major ? fullVersion : `${v}.0.0.0`)),
    platform: profile.hintPlatform,
    platformVersion: profile.platformVersion,
    architecture: "x86",
    bitness: "64",
    model: "",
    mobile: false,
    wow64: false,
  };
}

/** What applyStealth installed that can be taken off the page again. */
export interface InstalledStealth {
  /** Removes the page script (from the next document on) and stops patching new workers. */
  remove(): Promise<void>;
}

/**
 * Installs the evasions on a page: call before its first navigation. Sets the
 * user agent with matching client hints, navigator.platform and Accept-Language
 * (from options.languages), emulates a typical CPU count, and registers the
 * page script that repairs the remaining signals in every frame before any page
 * script runs. The page's user agent then belongs to stealth: a later
 * page.setUserAgent or emulateLocale does not change it, and remove() takes
 * off only the scripts (the overrides stay until set again). `session` is a CDP
 * session of the page to reuse (one is created otherwise). Throws only if the
 * page is already closed.
 */
export async function applyStealth(
  page: Page,
  options: StealthOptions,
  session?: CDPSession,
): Promise<InstalledStealth> {
  const profile = PROFILES[platformOf(options.userAgent, options.platform)];
  const override = {
    userAgent: options.userAgent,
    userAgentMetadata: stealthClientHints(
      options.userAgent,
      await browserVersion(page.browser()),
      options.platform,
    ),
    platform: profile.navigatorPlatform,
  };
  // Through puppeteer too, so frames in other processes (which it attaches to) get the same.
  await page.setUserAgent(override);
  // A second CDP session with its own emulation state resets navigator.platform unless it
  // carries the same override, so this session repeats it, with the languages as Chrome
  // formats Accept-Language (it adds the q-values), which also sets navigator.languages.
  const cdp = session ?? (await page.createCDPSession());
  const acceptLanguage = options.languages.length > 0 ? options.languages.join(",") : undefined;
  await cdp.send("Emulation.setUserAgentOverride", { ...override, acceptLanguage });
  // Native, so workers see it too; the page script patches navigator if this call is missing.
  await cdp
    .send("Emulation.setHardwareConcurrencyOverride", { hardwareConcurrency: HARDWARE_CONCURRENCY })
    .catch(() => undefined);
  const config: StealthScriptConfig = {
    languages: options.languages,
    platform: profile.navigatorPlatform,
    hardwareConcurrency: HARDWARE_CONCURRENCY,
    deviceMemory: DEVICE_MEMORY_GB,
    webglVendor: profile.webglVendor,
    webglRenderer: profile.webglRenderer,
  };
  const { identifier } = await page.evaluateOnNewDocument(stealthScript, config);
  // Puppeteer announces a dedicated worker while it is still paused before its first line
  // (it resumes it right after), so an evaluate sent now runs first. Workers keep the real
  // CPU count, platform and languages otherwise, a page-versus-worker mismatch detectors look for.
  const workerScript = `(${stealthScript})(${JSON.stringify(config)})`;
  const onWorker = (worker: WebWorker) => {
    worker.client.send("Runtime.evaluate", { expression: workerScript }).catch(() => undefined);
  };
  page.on("workercreated", onWorker);
  return {
    async remove() {
      page.off("workercreated", onWorker);
      await page.removeScriptToEvaluateOnNewDocument(identifier);
    },
  };
}
