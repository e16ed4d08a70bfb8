import { type Admission, admit, settle, usageHeaders, writeUsageHeaders } from "../src/auth/meter.ts";
import { loadPlans } from "../src/auth/plans.ts";
import { type AuthContext, identifyPrincipal, type Principal, presentedKey } from "../src/auth/principal.ts";
import type { Config } from "../src/config.ts";
import { SiphonError, toSiphonError } from "../src/errors.ts";
import { holdingWrites } from "../src/pipeline/holdback.ts";
import type { Awaitable, Store } from "../src/store/types.ts";
import { sseResponse } from "./sse.ts";

/** Auth settings of one server: who may call without a key. */
export interface Guard extends AuthContext {
  /** optional mode: keyless requests run as the local account. */
  keyOptional: boolean;
  /** The daemon listens on loopback: refuse Host headers that are not loopback names. */
  loopbackOnly: boolean;
  /** off mode: no authentication and no metering (a trusted single-user setup). */
  off: boolean;
  /**
   * Whether a request is on a Firecrawl or Jina route, where optional auth takes a key that is
   * not siphon's as no key (set by the app from its route table; absent: no route is).
   */
  compatPath?: (request: Request) => boolean;
  /** Where the one line saying a foreign key ran as the local account goes. */
  log?: (line: string) => void;
  /** That line was written already. */
  foreignKeyLogged?: boolean;
  /** The Host header last found a loopback name: a busy client's next request sends the same. */
  loopbackHost?: string;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return LOOPBACK_HOSTS.has(name) || name.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** The auth mode: SIPHON_AUTH, else required off loopback and optional on it. Throws invalid_request for another value. */
export function authModeOf(config: Config): "optional" | "required" | "off" {
  const mode = config.auth || (isLoopbackHost(config.host) ? "optional" : "required");
  if (mode !== "optional" && mode !== "required" && mode !== "off") {
    throw new SiphonError(
      "invalid_request",
      `SIPHON_AUTH must be required, optional or off, got "${config.auth}"`,
    );
  }
  return mode;
}

/** A guard for `config`'s auth mode (authModeOf). */
export function createGuard(config: Config, store: Store, now: () => number = Date.now): Guard {
  const loopback = isLoopbackHost(config.host);
  const mode = authModeOf(config);
  return {
    config,
    store,
    now,
    plans: loadPlans(config),
    keyOptional: mode !== "required",
    loopbackOnly: loopback,
    off: mode === "off",
  };
}

/** DNS-rebinding defence: a loopback daemon answers only requests addressed to a loopback name. */
export function checkHost(guard: Guard, request: Request): void {
  if (!guard.loopbackOnly) return;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  if (host === guard.loopbackHost) return;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
  if (!isLoopbackHost(name)) {
    throw new SiphonError(
      "forbidden_host",
      `This local server only answers requests to localhost, not "${name}"`,
      {
        hint: "Bind a public address with --host (auth is then required) to serve other names.",
      },
    );
  }
  guard.loopbackHost = host;
}

type SetHeaders = Record<string, string | number>;

const NO_KEY = new Headers();
const SIPHON_KEY = /^(?:Bearer\s+)?sph_(?:live|test)_/i;

/**
 * A key of another service (a Firecrawl client's `fc-...`) presented to a Firecrawl or Jina
 * route of a server whose auth is optional: such a client cannot be told to send no key, so it
 * runs as the local account, as a request without one would (DECISIONS.md). A siphon-shaped key
 * is checked as any; an empty or malformed header is not a key and stays a 401.
 */
function foreignKey(guard: Guard, request: Request): boolean {
  const presented = request.headers.get("authorization") ?? request.headers.get("x-api-key");
  if (presented === null || SIPHON_KEY.test(presented.trim())) return false;
  const key = presentedKey(request.headers);
  if (!key || !guard.compatPath?.(request)) return false;
  if (!guard.foreignKeyLogged) {
    guard.foreignKeyLogged = true;
    guard.log?.(
      "A Firecrawl or Jina client sent a key that is not a siphon key: it runs as the local account, as auth is optional here (logged once).",
    );
  }
  return true;
}

/**
 * Authenticates without metering (usage, stats, job polls): `keyRequired` forces a key even in
 * optional mode. Auth off checks no key, whatever the request carries: every request is the
 * local account's. Throws SiphonError unauthorized or invalid_token.
 */
export function identify(guard: Guard, request: Request, keyRequired = false): Awaitable<Principal> {
  if (guard.off) return identifyPrincipal(NO_KEY, guard, true);
  const optional = guard.keyOptional && !keyRequired;
  if (optional && foreignKey(guard, request)) return identifyPrincipal(NO_KEY, guard, true);
  return identifyPrincipal(request.headers, guard, optional);
}

/**
 * Runs a metered route: authenticate, admit (burst window, weekly quota),
 * run, settle the credits it reports, and set the usage headers, on errors
 * too (they are attached to the thrown SiphonError).
 */
export async function metered<T>(
  guard: Guard,
  request: Request,
  set: { headers: SetHeaders },
  route: string,
  run: (
    admission: Admission | null,
  ) => Promise<{ body: T; credits: number; degraded?: string; tokens?: number }>,
): Promise<T> {
  // Off mode: nothing authenticates or limits the request, so the route sees no admission.
  // Metering is awaited only when the store answers later: on SQLite it answers from memory.
  if (guard.off) return (await run(null)).body;
  const started = performance.now();
  const identified = identify(guard, request);
  const principal = identified instanceof Promise ? await identified : identified;
  const admitted = admit(principal, guard);
  const admission = admitted instanceof Promise ? await admitted : admitted;
  try {
    // The cache writes of a fresh answer wait for its credit: a request that cannot be charged
    // (the usage store is down) keeps nothing, so its retry is not a free cache hit. An unlimited
    // plan (the local account's) pays nothing, so it has no free retry to prevent and its writes
    // are not held (holding cost a cached request about 6% of its time).
    const held = admission.principal.plan.unlimited ? null : await holdingWrites(() => run(admission));
    const { body, credits, degraded, tokens } = held ? held.value : await run(admission);
    let paid = false;
    let settlement: Awaited<ReturnType<typeof settle>>;
    try {
      const settling = settle(
        admission,
        { credits, route, status: 200, durationMs: performance.now() - started, tokens },
        guard,
      );
      settlement = settling instanceof Promise ? await settling : settling;
      paid = true;
    } finally {
      if (held) await held.release(paid);
    }
    writeUsageHeaders(set.headers, admission, settlement);
    if (degraded) {
      const soft = set.headers["x-degraded"];
      set.headers["x-degraded"] = soft ? `${soft}; ${degraded}` : degraded;
    }
    return body;
  } catch (raw) {
    throw await settledError(raw, admission, route, started, guard);
  }
}

/**
 * A request that failed after it was admitted: logged with no credit, and its error carrying the
 * usage headers (its own headers win).
 */
async function settledError(
  raw: unknown,
  admission: Admission,
  route: string,
  started: number,
  guard: Guard,
): Promise<SiphonError> {
  const error = toSiphonError(raw);
  const settlement = await settle(
    admission,
    { credits: 0, route, status: error.status, durationMs: performance.now() - started },
    guard,
  );
  const own = { ...error.headers };
  Object.assign(error.headers, usageHeaders(admission, settlement), own);
  return error;
}

/**
 * A metered stream of server-sent events: authenticated and admitted like `metered`, but its
 * credits are known only when its events end (deep research and the agent fetch as they go), so
 * it is settled then, once, with its credits, whether it finished, failed or the client left. A
 * failure before the stream starts (`start` throws) is settled and thrown as `metered` does.
 */
export async function meteredStream(
  guard: Guard,
  request: Request,
  set: { headers: SetHeaders },
  route: string,
  start: (admission: Admission | null) => Promise<{
    events: AsyncIterable<unknown>;
    /** Read once the events end; may wait for the work behind them to end (a client that left). */
    credits(): number | Promise<number>;
    /** The LLM tokens the stream used, read with the credits; none when absent. */
    tokens?(): number | Promise<number>;
    /**
     * Credits known before the first event (an answer's pages are fetched before its model
     * streams): sent in X-Credits-Used and the weekly headers, and settled with the tokens at the
     * end. Without it the headers show the week before the request and no X-Credits-Used.
     */
    creditsUpfront?: number;
    /** Why the work ran degraded, added to X-Degraded. */
    degraded?: string;
  }>,
  /** An `event:` name for every frame (see sseResponse). */
  eventName?: string,
): Promise<Response> {
  if (guard.off) return sseResponse((await start(null)).events, {}, undefined, eventName);
  const started = performance.now();
  const principal = await identify(guard, request);
  const admission = await admit(principal, guard);
  let outcome: Awaited<ReturnType<typeof start>>;
  try {
    outcome = await start(admission);
  } catch (raw) {
    throw await settledError(raw, admission, route, started, guard);
  }
  const { events, credits, tokens, creditsUpfront, degraded } = outcome;
  // What the week holds with this request's credits when they are known now; else the week
  // before them (they come at the end).
  const upfront = creditsUpfront ?? 0;
  writeUsageHeaders(set.headers, admission, {
    credits: upfront,
    weeklyUsed: admission.weekly.used + upfront,
  });
  if (creditsUpfront === undefined) delete set.headers["x-credits-used"];
  if (degraded) {
    const soft = set.headers["x-degraded"];
    set.headers["x-degraded"] = soft ? `${soft}; ${degraded}` : degraded;
  }
  async function* charged() {
    try {
      yield* events;
    } finally {
      const spent = await credits();
      const used = tokens ? await tokens() : 0;
      await settle(
        admission,
        { credits: spent, route, status: 200, durationMs: performance.now() - started, tokens: used },
        guard,
      );
    }
  }
  return sseResponse(charged(), {}, undefined, eventName);
}
