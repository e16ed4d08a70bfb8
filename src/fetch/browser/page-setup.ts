import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { acceptLanguage } from "../locale.ts";
import type { EngineFetchOptions } from "../types.ts";
import { countryLocale } from "./locale.ts";
import { applyStealth, stealthUserAgent } from "./stealth.ts";

const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
/** Headers that are not plain request headers in a browser: handled through their own APIs. */
const MANAGED_HEADERS = new Set(["user-agent", "cookie", "accept-language", "host"]);

const userAgents = new WeakMap<Browser, Promise<string>>();

/** The browser's own User-Agent without the "Headless" that sites block on. */
function realUserAgent(browser: Browser): Promise<string> {
  let ua = userAgents.get(browser);
  if (!ua) {
    ua = browser.userAgent().then((value) => value.replace(/HeadlessChrome/g, "Chrome"));
    userAgents.set(browser, ua);
  }
  return ua;
}

function parseCookies(list: string[] | undefined, header: string | undefined): [string, string][] {
  const pairs = list?.length ? list : (header?.split(";") ?? []);
  return pairs.flatMap((pair) => {
    const eq = pair.indexOf("=");
    const name = eq > 0 ? pair.slice(0, eq).trim() : "";
    return name ? [[name, pair.slice(eq + 1).trim()] as [string, string]] : [];
  });
}

/**
 * Sets up a fresh page before navigation: viewport, User-Agent (stealth evasions or just no
 * "Headless"), languages, time zone and geolocation of `location`, cookies for the target.
 * Returns the viewport and the caller headers left for the request filter to add.
 */
export async function preparePage(
  page: Page,
  context: BrowserContext,
  target: URL,
  options: EngineFetchOptions,
  stealth: boolean,
): Promise<{ viewport: { width: number; height: number }; custom: Record<string, string> }> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const browser = page.browser();
  const userAgent =
    headers["user-agent"] ??
    (stealth ? stealthUserAgent(await browser.version()) : await realUserAgent(browser));
  const accept =
    headers["accept-language"] ?? acceptLanguage(options.location, options.languages) ?? "en-US,en;q=0.9";
  const languages = accept.split(",").map((tag) => tag.split(";")[0]!.trim());
  const viewport = options.viewport ?? DEFAULT_VIEWPORT;

  await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
  const cdp = await page.createCDPSession();
  if (stealth) {
    await applyStealth(page, { userAgent, languages });
    // Stealth's user-agent override does not carry languages: send the header ourselves.
    await page.setExtraHTTPHeaders({ "accept-language": accept });
  } else {
    // Chromium derives navigator.languages and the header (adding q-values) from a plain list.
    await cdp.send("Emulation.setUserAgentOverride", { userAgent, acceptLanguage: languages.join(",") });
  }
  // Intl formats dates and numbers like the claimed language; best effort, it is cosmetic.
  await cdp.send("Emulation.setLocaleOverride", { locale: languages[0] }).catch(() => {});
  if (options.location) {
    const locale = countryLocale(options.location);
    await page.emulateTimezone(locale.timezone);
    if (locale.geolocation) {
      await context.overridePermissions(target.origin, ["geolocation"]);
      await page.setGeolocation(locale.geolocation);
    }
  }
  const cookies = parseCookies(options.cookies, headers.cookie);
  if (cookies.length) {
    await context.setCookie(
      ...cookies.map(([name, value]) => ({
        name,
        value,
        domain: target.hostname,
        path: "/",
        secure: target.protocol === "https:",
      })),
    );
  }
  const custom = Object.fromEntries(Object.entries(headers).filter(([name]) => !MANAGED_HEADERS.has(name)));
  return { viewport, custom };
}
