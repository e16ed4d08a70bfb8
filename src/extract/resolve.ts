/** Resolutions remembered at most per kind; the maps are emptied when full. */
const MAX_ENTRIES = 4096;

/** Absolute http(s) hrefs, whose resolution is the same whatever the base. */
const absolute = new Map<string, string | null>();
/** Path-absolute hrefs (`/...`), by the base's scheme and authority, then by the href. */
const rooted = new Map<string, Map<string, string | null>>();
/** How many hrefs `rooted` holds in all; past MAX_ENTRIES it is emptied. */
let rootedEntries = 0;
/** The base last asked about and its map: a page resolves all its links against one base. */
let lastBase = "";
let lastRooted: Map<string, string | null> | null = null;

/** The map of `rooted` for `origin`, made if missing. */
function rootedMap(origin: string): Map<string, string | null> {
  let map = rooted.get(origin);
  if (!map) {
    map = new Map();
    rooted.set(origin, map);
  }
  return map;
}

/** A rooted href resolved against `base`, whose path starts at `path`. */
function resolveRooted(href: string, base: string, path: number): string | null {
  let map = base === lastBase ? lastRooted : null;
  if (!map) {
    map = rootedMap(base.slice(0, path));
    lastBase = base;
    lastRooted = map;
  }
  let url = map.get(href);
  if (url === undefined) {
    if (rootedEntries >= MAX_ENTRIES) {
      rooted.clear();
      rootedEntries = 0;
      map = lastRooted = rootedMap(base.slice(0, path));
    }
    url = parse(href, base);
    map.set(href, url);
    rootedEntries++;
  }
  return url;
}

function parse(href: string, base: string): string | null {
  try {
    return new URL(href, base).href;
  } catch {
    return null;
  }
}

function remembered(cache: Map<string, string | null>, href: string, base: string) {
  let url = cache.get(href);
  if (url === undefined) {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    url = parse(href, base);
    cache.set(href, url);
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
  if (href.startsWith("https://") || href.startsWith("http://")) return remembered(absolute, href, base);
  if (href.startsWith("/")) {
    const scheme = base.startsWith("https://") ? 8 : base.startsWith("http://") ? 7 : -1;
    const path = scheme < 0 ? -1 : base.indexOf("/", scheme);
    if (path > 0) return resolveRooted(href, base, path);
  }
  return parse(href, base);
}
