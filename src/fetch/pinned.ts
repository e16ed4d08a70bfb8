import { ipLiteral, type ResolvedAddress } from "./ssrf.ts";

/**
 * Sends a request to the address the SSRF guard checked rather than to the
 * name, so DNS cannot change between the check and the connection. The Host
 * header keeps the real name; over HTTPS the certificate is checked against
 * the real name (TLS serverName) and the connection is not pooled, since a
 * pooled connection is keyed by address and reusing one opened for another
 * name would skip that check. Redirects are never followed here.
 */
export function pinnedFetch(
  url: URL,
  address: ResolvedAddress,
  init: RequestInit & { headers: Headers },
): Promise<Response> {
  init.headers.set("host", url.host);
  const request: RequestInit & { tls?: { serverName?: string } } = { ...init, redirect: "manual" };
  if (url.protocol === "https:" && ipLiteral(url.hostname) === null) {
    request.tls = { serverName: url.hostname.replace(/\.$/, "") };
    request.keepalive = false;
  }
  const host = address.family === 6 ? `[${address.address}]` : address.address;
  return fetch(
    `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}${url.pathname}${url.search}`,
    request,
  );
}
