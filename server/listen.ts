import http from "node:http";
import { SiphonError } from "../src/errors.ts";
import type { App } from "./app.ts";
import { PARSER_HEADER_BYTES } from "./errors.ts";

export interface ListenOptions {
  port: number;
  hostname: string;
  /**
   * Share the port with other processes that ask for the same (SO_REUSEPORT): the kernel then
   * spreads connections between them. Only for processes of one deployment (one store, one
   * Redis); off, a port another process holds refuses this one.
   */
  reusePort: boolean;
}

/**
 * Serves `app` on a socket. Bun's parser is told to read request lines and headers up to
 * PARSER_HEADER_BYTES, so that siphon itself answers the ones over its own limit (a 431 with a
 * body, server/errors.ts); Elysia's default of sharing the port (reusePort) is off unless asked.
 * Returns the port listened on; throws SiphonError invalid_request when the port is taken
 * (another process listens on it) or cannot be bound.
 */
export function listen(app: App, options: ListenOptions): number {
  // Bun's setter changes the limit its HTTP parser applies to servers started from now on.
  (http as { maxHeaderSize: number }).maxHeaderSize = PARSER_HEADER_BYTES;
  try {
    app.listen({ port: options.port, hostname: options.hostname, reusePort: options.reusePort });
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    if (code === "EADDRINUSE") {
      throw new SiphonError(
        "invalid_request",
        `port ${options.port} is taken (another process is listening)`,
        {
          hint: "Stop the other process, or choose another port with --port (0 picks a free one).",
          cause: error,
        },
      );
    }
    if (code === "EACCES" || code === "EADDRNOTAVAIL") {
      throw new SiphonError(
        "invalid_request",
        `cannot listen on ${options.hostname}:${options.port} (${code})`,
        {
          hint:
            code === "EACCES"
              ? "Ports below 1024 need privileges; choose a port from 1024 up."
              : "--host must be an address of this machine.",
          cause: error,
        },
      );
    }
    throw error;
  }
  const server = app.server;
  if (!server) throw new SiphonError("internal_error", "The server did not start");
  return server.port ?? options.port;
}
