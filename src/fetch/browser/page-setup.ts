import type { Browser } from "puppeteer-core";
import { acceptLanguage } from "../locale.ts";
import type { EngineFetchOptions } from "../types.ts";
import { countryLocale } from "./locale.ts";
import type { PageLease } from "./slot.ts";
import { applyStealth, browserVersion, stealthUserAgent } from "./stealth.ts";

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
    // A call that failed (the browser busy or going away) is asked again by the next request.
    ua.catch(() => userAgents.delete(browser));
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
 * Permissions that ask the user by default. Headless Chromium denies such a request at once and
 * remembers the denial for the origin in the context, beyond any wipe; held at "prompt" by an
 * override, they are denied the same way but nothing is remembered.
 */
const ASKING_PERMISSIONS = [
  { name: "geolocation" },
  { name: "notifications" },
  { name: "camera" },
  { name: "microphone" },
  { name: "midi" },
  { name: "midi", sysex: true },
  { name: "clipboard-read" },
  { name: "idle-detection" },
  { name: "local-fonts" },
  { name: "window-management" },
  { name: "display-capture" },
  { name: "captured-surface-control" },
  { name: "persistent-storage" },
  { name: "local-network-access" },
];

/** Applies a setting unless the page already has that value (pages are reused across requests). */
async function ensure(lease: PageLease, name: string, value: string, apply: () => Promise<unknown>) {
  if (lease.applied.get(name) === value) return;
  // Unknown until the call succeeds: a failed one must not look applied to the next request.
  lease.applied.delete(name);
  await apply();
  lease.applied.set(name, value);
}

/** What the engine needs after set-up. */
export interface PreparedPage {
  viewport: { width: number; height: number };
  /** Caller headers left for the request filter to add. */
  custom: Record<string, string>;
  /** Takes off what only this request may have (stealth's page scripts); call before releasing. */
  cleanup(): Promise<void>;
}

/**
 * Sets up a lent page before navigation. Every setting a request can change is set on every
 * request, and sent only when it differs from what the page already has: viewport, User-Agent
 * (stealth evasions or just no "Headless"), languages and Intl locale, time zone. Permissions
 * that ask are held at "prompt" so that no answer is remembered; with a `location`, geolocation
 * is granted to the target's origin (pages with a location are never lent without one).
 * Cookies for the target are added to the context, which the pool wipes after the request.
 */
export async function preparePage(
  lease: PageLease,
  target: URL,
  options: EngineFetchOptions,
  stealth: boolean,
): Promise<PreparedPage> {
  const { page, context, session } = lease;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const browser = page.browser();
  const userAgent =
    headers["user-agent"] ??
    (stealth ? stealthUserAgent(await browserVersion(browser)) : await realUserAgent(browser));
  const accept =
    headers["accept-language"] ?? acceptLanguage(options.location, options.languages) ?? "en-US,en;q=0.9";
  const languages = accept.split(",").map((tag) => tag.split(";")[0]!.trim());
  const viewport = options.viewport ?? DEFAULT_VIEWPORT;

  const now = page.viewport();
  if (now?.width !== viewport.width || now?.height !== viewport.height || now?.deviceScaleFactor !== 1) {
    await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
  }
  let cleanup = async () => {};
  if (stealth) {
    // Stealth pages live in their own partition of the pool: their overrides are set anew each time.
    const installed = await applyStealth(page, { userAgent, languages }, session);
    cleanup = () => installed.remove();
    // Stealth's user-agent override does not carry languages: send the header ourselves.
    await page.setExtraHTTPHeaders({ "accept-language": accept });
  } else {
    // Chromium derives navigator.languages and the header (adding q-values) from a plain list.
    const override = { userAgent, acceptLanguage: languages.join(",") };
    await ensure(lease, "user-agent", JSON.stringify(override), () =>
      session.send("Emulation.setUserAgentOverride", override),
    );
  }
  // Intl formats dates and numbers like the claimed language; best effort, it is cosmetic.
  await ensure(lease, "locale", languages[0]!, () =>
    session.send("Emulation.setLocaleOverride", { locale: languages[0] }),
  ).catch(() => {});
  const locale = options.location ? countryLocale(options.location) : undefined;
  await ensure(lease, "timezone", locale?.timezone ?? "", () => page.emulateTimezone(locale?.timezone));
  // One by one and best effort: another Chromium (SIPHON_CHROMIUM_PATH, a remote browser) may
  // not know every name, and a missing hold must not fail the fetch.
  await ensure(lease, "held permissions", "all", () =>
    Promise.all(
      ASKING_PERMISSIONS.map((permission) =>
        context.setPermission("*", { permission, state: "prompt" }).catch(() => {}),
      ),
    ),
  );
  const geolocation = locale?.geolocation;
  if (geolocation) {
    // Never taken back (a wipe does not touch permissions): requests with a location have pages
    // of their own, a partition of the pool per country (see the engine).
    await ensure(lease, `geolocation ${target.origin}`, JSON.stringify(geolocation), async () => {
      await context.overridePermissions(target.origin, ["geolocation"]);
      await page.setGeolocation(geolocation);
    });
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
  return { viewport, custom, cleanup };
}
