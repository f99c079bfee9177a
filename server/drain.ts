import type { Server } from "node:http";

/** How long SIGTERM waits for requests in flight before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops accepting connections and waits for the requests in flight to be answered, at most
 * `graceMs`. A kept-alive connection is closed as soon as it is idle (else it would hold the
 * close for the whole keep-alive, keep-alive.ts); past the bound every connection is cut.
 * Answers "drained" or "cut".
 */
export function drain(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<"drained" | "cut"> {
  return new Promise((resolve) => {
    let cut = false;
    // a connection finishing its request becomes idle: close it then, not 65 s later
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const bound = setTimeout(() => {
      cut = true;
      server.closeAllConnections();
    }, graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(bound);
      resolve(cut ? "cut" : "drained");
    });
    server.closeIdleConnections();
  });
}
