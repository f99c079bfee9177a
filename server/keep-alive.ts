import type { Server } from "node:http";

/**
 * How long an idle keep-alive connection is kept. Node's default (5 s) is shorter than the idle
 * time of the clients that reuse connections (browsers, reverse proxies, Playwright's request
 * client): a request sent just as the server closes its idle socket fails with ECONNRESET. The
 * server must be the side that waits longest, so the client is the one that closes.
 */
export const KEEP_ALIVE_MS = 65_000;

export function keepConnections<S extends Server>(server: S): S {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // a kept connection's next request must have longer than the keep-alive to send its headers,
  // or Node cuts the connection first
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}
