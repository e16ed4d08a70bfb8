import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { SiphonError } from "../errors.ts";

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; rejects when the name does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** How a guard is built; the engine derives it from Config (disableSsrfProtection, ssrfAllow). */
export interface SsrfGuardOptions {
  /** false turns the range checks off (tests, trusted self-hosting); names are still resolved and pinned. */
  enabled: boolean;
  /**
   * "host:port" origins exempt from the range checks, matched exactly against url.hostname and the
   * effective port (IPv6 as "[::1]:8080"). Exempt hosts are still resolved and pinned.
   */
  allow?: readonly string[];
  /** Defaults to the system resolver (getaddrinfo through node:dns). */
  resolver?: Resolver;
}

/** Decides whether a URL may be fetched and which address to connect to. */
export interface SsrfGuard {
  /**
   * Resolves the URL's host and returns the address to connect to. Callers must connect
   * to that address (not resolve again), or a DNS answer could change between check and use.
   *
   * @throws SiphonError forbidden_url when any address of the host is not public;
   *   network_error when the name does not resolve; the signal's reason when aborted
   */
  check(url: URL, signal?: AbortSignal): Promise<ResolvedAddress>;
}

/** What to tell a caller whose URL the guard refused. */
export const FORBIDDEN_HINT =
  "Fetch a public http(s) address. A self-hosted server can exempt a trusted origin with SIPHON_SSRF_ALLOW=host:port.";

/** The system resolver: every address, in the order getaddrinfo returns them. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** Splits a SIPHON_SSRF_ALLOW value ("host:port,host:port") into normalised entries. */
export function parseAllowList(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
}

function describeV4(address: ipaddr.IPv4): string | null {
  const range = address.range();
  // Everything ipaddr.js does not call plain unicast (private, loopback, link-local, CGNAT,
  // reserved incl. 240/4 and 198.18/15, multicast, broadcast, 0/8 ...) is off limits.
  return range === "unicast" ? null : range;
}

function describeV6(address: ipaddr.IPv6): string | null {
  const range = address.range();
  const parts = address.parts;
  const low32 = () => new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145": {
      const inner = describeV4(low32());
      return inner && `IPv4-mapped ${inner}`;
    }
    case "rfc6052": {
      // 64:ff9b:1::/48 is the local-use NAT64 prefix: always internal.
      if (parts[2] !== 0) return "local-use NAT64";
      const inner = describeV4(low32());
      return inner && `NAT64 ${inner}`;
    }
    case "6to4": {
      const inner = describeV4(
        new ipaddr.IPv4([parts[1]! >> 8, parts[1]! & 0xff, parts[2]! >> 8, parts[2]! & 0xff]),
      );
      return inner && `6to4 ${inner}`;
    }
    case "unicast":
      // ipaddr.js calls the deprecated IPv4-compatible ::a.b.c.d "unicast"; only 2000::/3 is
      // actually assigned as global unicast, so anything outside it is refused.
      return (parts[0]! & 0xe000) === 0x2000 ? null : "reserved";
    default:
      // Teredo, unique-local, site-local, link-local, multicast, documentation, discard...
      return range;
  }
}

/**
 * Names why an IP address must not be fetched (e.g. "loopback", "private", "IPv4-mapped
 * loopback"), or returns null for a public unicast address. Unparseable input is refused.
 */
export function refusalReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return "unrecognised";
  }
  return parsed.kind() === "ipv4" ? describeV4(parsed as ipaddr.IPv4) : describeV6(parsed as ipaddr.IPv6);
}

/** The IP literal in a WHATWG hostname, if it is one (WHATWG already canonicalises 0x7f.1, 2130706433...). */
export function ipLiteral(hostname: string): ResolvedAddress | null {
  if (hostname.startsWith("[") && hostname.endsWith("]"))
    return { address: hostname.slice(1, -1), family: 6 };
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return { address: hostname, family: 4 };
  return null;
}

/** The port a URL connects to, its scheme's default when none is written. */
export function effectivePort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Creates the SSRF guard every outgoing fetch (pages, redirects, webhooks) goes through. */
export function createSsrfGuard(options: SsrfGuardOptions): SsrfGuard {
  const allow = new Set((options.allow ?? []).map((entry) => entry.trim().toLowerCase()));
  const resolver = options.resolver ?? systemResolver;

  async function resolve(url: URL, name: string, signal?: AbortSignal): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await abortable(resolver(name), signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const code = (error as { code?: string } | null)?.code;
      throw new SiphonError(
        "network_error",
        `Could not resolve host ${url.hostname}${code ? ` (${code})` : ""}; check the spelling of the domain.`,
        { cause: error },
      );
    }
    if (addresses.length === 0) {
      throw new SiphonError("network_error", `Host ${url.hostname} has no addresses; check the domain.`);
    }
    return addresses;
  }

  return {
    async check(url, signal) {
      const hostname = url.hostname.toLowerCase();
      // "localhost." is the same name as "localhost"; compare names without the root dot.
      const name = hostname.replace(/\.+$/, "");
      const exempt = !options.enabled || allow.has(`${hostname}:${effectivePort(url)}`);

      if (!exempt && (name === "localhost" || name.endsWith(".localhost"))) {
        throw new SiphonError("forbidden_url", `${url.hostname} is a local address and cannot be fetched.`, {
          hint: FORBIDDEN_HINT,
        });
      }

      const literal = ipLiteral(hostname);
      const addresses = literal ? [literal] : await resolve(url, name, signal);
      if (!exempt) {
        for (const { address } of addresses) {
          const reason = refusalReason(address);
          if (reason === null) continue;
          const subject = literal
            ? `The address ${address}`
            : `${url.hostname} resolves to ${address}, which`;
          throw new SiphonError(
            "forbidden_url",
            `${subject} is not a public address (${reason}); internal addresses cannot be fetched.`,
            { hint: FORBIDDEN_HINT },
          );
        }
      }
      return addresses[0]!;
    },
  };
}
