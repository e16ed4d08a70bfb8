/** Resolutions remembered at most per kind; the map is emptied when full. */
const MAX_ENTRIES = 4096;

/** Absolute http(s) hrefs, whose resolution is the same whatever the base. */
const absolute = new Map<string, string | null>();
/** Path-absolute hrefs (`/...`), by the base's scheme and authority and the href. */
const rooted = new Map<string, string | null>();

function parse(href: string, base: string): string | null {
  try {
    return new URL(href, base).href;
  } catch {
    return null;
  }
}

function remembered(cache: Map<string, string | null>, key: string, href: string, base: string) {
  let url = cache.get(key);
  if (url === undefined) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    url = parse(href, base);
    cache.set(key, url);
  }
  return url;
}

/**
 * `new URL(href, base).href`, or null when it does not parse. A site's
 * navigation and footer repeat the same links on every page, so hrefs whose
 * resolution does not depend on the base's path are remembered: absolute
 * `http(s)://` ones by the href, `/`-rooted ones by the base's scheme and
 * authority (`//host` and `/\host` are rooted too and depend on no more).
 */
export function resolveHref(href: string, base: string): string | null {
  if (href.startsWith("https://") || href.startsWith("http://"))
    return remembered(absolute, href, href, base);
  if (href.startsWith("/")) {
    const scheme = base.startsWith("https://") ? 8 : base.startsWith("http://") ? 7 : -1;
    const path = scheme < 0 ? -1 : base.indexOf("/", scheme);
    if (path > 0) return remembered(rooted, `${base.slice(0, path)} ${href}`, href, base);
  }
  return parse(href, base);
}
