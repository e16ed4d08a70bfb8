import type { LookupAddress, LookupOptions } from "node:dns";
import type { Socket } from "node:net";
import { SiphonError } from "../../errors.ts";
import { FORBIDDEN_HINT, type ResolvedAddress, type SsrfGuard } from "../ssrf.ts";

/**
 * Header of the proxy's own refusals (its value is the SiphonError type), so that a main
 * document the proxy answered is reported as that error rather than as the site's page.
 */
export const PROXY_ERROR_HEADER = "x-siphon-proxy-error";

/** An HTTP proxy on 127.0.0.1 through which a browser reaches only what the SSRF guard allows. */
export interface GuardProxy {
  /** Where the browser sends its traffic: "http://127.0.0.1:PORT". */
  readonly url: string;
  /**
   * A made-up http URL that only this proxy answers, with `probeToken` as the body: a browser
   * that loads it through the proxy can reach the proxy.
   */
  readonly probeUrl: string;
  readonly probeToken: string;
  /** Stops listening and cuts every open connection; idempotent, never throws. */
  close(): Promise<void>;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A dns.lookup stand-in that answers every name with the address the guard checked: the
 * connection goes there, and no second lookup can rebind the name to an internal address.
 */
function pinnedLookup({ address, family }: ResolvedAddress) {
  return (_hostname: string, options: LookupOptions | LookupCallback, callback?: LookupCallback) => {
    const done = (typeof options === "function" ? options : callback)!;
    if (typeof options === "object" && options.all) done(null, [{ address, family }]);
    else done(null, address, family);
  };
}

/**
 * Starts the proxy the browser is launched behind (`--proxy-server`), listening on 127.0.0.1
 * on a free port. Every target, whether a plain-HTTP request line (each request of a kept-alive
 * connection on its own) or a CONNECT tunnel (https, ws, wss), goes through `guard.check`, which
 * resolves the name once and validates every address; the proxy then connects to exactly that
 * address. A refused target is answered 403 (a name that does not resolve 502), marked with
 * PROXY_ERROR_HEADER, and the connection is closed: nothing reaches the refused address.
 * proxy-chain (Apify) does the HTTP proxying; its per-request `dnsLookup` hook is where the
 * checked address is handed over. A kept-alive upstream connection may serve a later request
 * only after that request's own check passed, and leads to an address checked for the same
 * host. proxy-chain's own upstream failures use statuses 590-599.
 * @throws when no port can be bound on 127.0.0.1
 */
export async function startGuardProxy(guard: SsrfGuard): Promise<GuardProxy> {
  const { RequestError, Server } = await import("proxy-chain");
  const probeToken = crypto.randomUUID();
  // .invalid never resolves (RFC 6761), so nothing but this proxy can answer the name.
  const probeHost = `${probeToken}.siphon-proxy-probe.invalid`;
  const server = new Server({
    host: "127.0.0.1",
    port: 0,
    async prepareRequestFunction({ hostname, port, isHttp }) {
      if (isHttp && hostname === probeHost) {
        return { customResponseFunction: () => ({ statusCode: 200, body: probeToken }) };
      }
      let target: URL | undefined;
      try {
        // The scheme only decides the default port, and every target here names its port.
        target = new URL(`${isHttp ? "http" : "https"}://${hostname}:${port}/`);
      } catch {
        // Refused below.
      }
      // Chromium sends hosts in canonical form; any other spelling (0x7f.1, 2130706433...) is
      // refused, so that the guard and the connection never read one host two ways.
      if (!target || target.hostname !== hostname) {
        throw new RequestError(`${hostname}:${port} is not a canonical host:port.`, 400);
      }
      let address: ResolvedAddress;
      try {
        address = await guard.check(target);
      } catch (error) {
        const refused = error instanceof SiphonError ? error : undefined;
        const type = refused?.type === "forbidden_url" ? "forbidden_url" : "network_error";
        const message = refused?.message ?? `${target.host} could not be checked and was not fetched.`;
        throw new RequestError(message, type === "forbidden_url" ? 403 : 502, { [PROXY_ERROR_HEADER]: type });
      }
      return { dnsLookup: pinnedLookup(address) as never };
    },
  });
  // proxy-chain reports failures it already answered; nothing is left to do with them here.
  server.on("requestFailed", () => {});
  // Small request and response heads must not wait on Nagle's algorithm (a few ms per request).
  server.server.on("connection", (socket: Socket) => socket.setNoDelay(true));
  await server.listen();
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${server.port}`,
    probeUrl: `http://${probeHost}/`,
    probeToken,
    close() {
      closing ??= server.close(true).catch(() => {});
      return closing;
    },
  };
}

/** Chromium never proxies loopback unless "<-loopback>" takes it off the implicit bypass list. */
export const PROXY_BYPASS_LIST = "<-loopback>";

/** Chromium flags that send every connection through `proxy`, loopback included. */
export function proxyArgs(proxy: GuardProxy): string[] {
  return [
    `--proxy-server=${proxy.url}`,
    `--proxy-bypass-list=${PROXY_BYPASS_LIST}`,
    // WebRTC would send STUN/TURN over UDP straight to any address a page names: only
    // proxied TCP is left to it. Full Chromium reads the first flag, the headless shell
    // (which has no browser preferences) only the second.
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  ];
}

/** Statuses proxy-chain answers a plain-HTTP request with when the checked address fails. */
const UPSTREAM_FAILURES: Record<number, string> = {
  593: "could not be resolved",
  594: "refused the connection",
  595: "closed the connection before answering",
  596: "closed the connection before answering",
};

/**
 * The error a main document stands for when the proxy, not the site, answered it (a refusal,
 * or a plain-HTTP target that could not be reached); undefined for the site's own answers.
 */
export function proxyAnswerError(
  url: URL,
  status: number,
  headers: Record<string, string>,
): SiphonError | undefined {
  const type = headers[PROXY_ERROR_HEADER];
  if (type === "forbidden_url") {
    return new SiphonError(
      "forbidden_url",
      `${url.host} resolves to an address that is not public; internal addresses cannot be fetched.`,
      { hint: FORBIDDEN_HINT },
    );
  }
  if (type === "network_error") {
    return new SiphonError("network_error", `Could not resolve host ${url.hostname}; check the domain.`);
  }
  if (status >= 590 && status <= 599) {
    const what = UPSTREAM_FAILURES[status] ?? "could not be reached";
    return new SiphonError("network_error", `${url.host} ${what}; the site may be down.`);
  }
  return undefined;
}
