import { rewriteError } from "./compat/http.ts";
import { firecrawlErrors } from "./compat/shared.ts";

/** One route of the app as Elysia lists it (`app.routes`). */
export interface ListedRoute {
  method: string;
  path: string;
  hooks?: unknown;
}

/** How the routes of one path answer: the methods they serve and whose error shape they take. */
interface PathEntry {
  pattern: RegExp;
  /** Methods served; a catch-all route (ALL) serves every method and adds none here. */
  methods: Set<string>;
  /** Methods whose route answers errors Firecrawl's way (the compat plugin's routes); ALL for a catch-all's. */
  firecrawl: Set<string>;
  /** Firecrawl clients use the path too (a path siphon's own API shares with Firecrawl's v1). */
  shared: boolean;
}

/** What the app's route table says about a request path. */
export interface RouteTable {
  /**
   * The methods the path serves, with HEAD where GET is (Elysia answers HEAD from the GET route),
   * sorted; empty when no route has the path (an unknown path: 404).
   */
  allowed(pathname: string): string[];
  /**
   * Errors of the method on the path answer Firecrawl's way, whatever went wrong before a route
   * ran (431, 405): the method's route is Firecrawl's or, for a method the path does not serve,
   * every route of the path is.
   */
  firecrawlShaped(pathname: string, method: string): boolean;
  /** A Firecrawl or Jina client calls the path: a Firecrawl-only path, one shared with Firecrawl's v1, or Jina's reader. */
  compatPath(pathname: string): boolean;
}

/** Jina Reader's route (server/compat/reader.ts): nothing in its hooks names it, so its path does. */
const JINA_PREFIX = "/r/";

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/** Elysia's path syntax as a regular expression: `:name` one segment, a trailing `*` the rest. */
function patternOf(path: string): RegExp {
  const body = path
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      if (segment.startsWith(":")) return "[^/]+";
      return escapeRegExp(segment);
    })
    .join("/");
  return new RegExp(`^${body}/?$`);
}

/** The functions of a hook list as Elysia keeps it (a function, or containers `{fn}`). */
function hookFunctions(value: unknown): unknown[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((entry) => (typeof entry === "function" ? entry : (entry as { fn?: unknown })?.fn));
}

/**
 * The app's route table read once from its routes (after they are all registered), so a new
 * route's methods are in the 405's Allow without a list kept by hand. Firecrawl's routes are
 * recognised by the hook that shapes their errors (server/compat/http.ts `rewriteError`), the
 * shared v1 paths by theirs (server/compat/shared.ts `firecrawlErrors`).
 */
export function routeTable(routes: () => readonly ListedRoute[]): RouteTable {
  let entries: PathEntry[] | undefined;
  const build = (): PathEntry[] => {
    const byPath = new Map<string, PathEntry>();
    for (const route of routes()) {
      let entry = byPath.get(route.path);
      if (!entry) {
        entry = { pattern: patternOf(route.path), methods: new Set(), firecrawl: new Set(), shared: false };
        byPath.set(route.path, entry);
      }
      // A WebSocket route is a GET with Upgrade; ALL answers any method, so none is refused there.
      const method = route.method.toUpperCase() === "WS" ? "GET" : route.method.toUpperCase();
      if (method !== "ALL") entry.methods.add(method);
      const mapResponse = hookFunctions((route.hooks as { mapResponse?: unknown } | undefined)?.mapResponse);
      if (mapResponse.includes(rewriteError)) entry.firecrawl.add(method);
      if (mapResponse.includes(firecrawlErrors)) entry.shared = true;
    }
    return [...byPath.values()];
  };
  const matching = (pathname: string) => {
    entries ??= build();
    return entries.filter((entry) => entry.pattern.test(pathname));
  };
  return {
    allowed(pathname) {
      const methods = new Set<string>();
      for (const entry of matching(pathname)) for (const method of entry.methods) methods.add(method);
      if (methods.has("GET")) methods.add("HEAD");
      return [...methods].sort();
    },
    firecrawlShaped(pathname, method) {
      const entries = matching(pathname);
      const firecrawl = (entry: PathEntry, m: string) => entry.firecrawl.has(m) || entry.firecrawl.has("ALL");
      const serving = entries.filter((entry) => entry.methods.has(method));
      if (serving.length) return serving.some((entry) => firecrawl(entry, method));
      const all = entries.flatMap((entry) => [...entry.methods].map((m) => firecrawl(entry, m)));
      return all.length > 0 ? all.every(Boolean) : entries.some((entry) => entry.firecrawl.has("ALL"));
    },
    compatPath: (pathname) =>
      pathname.startsWith(JINA_PREFIX) ||
      matching(pathname).some((entry) => entry.firecrawl.size > 0 || entry.shared),
  };
}
