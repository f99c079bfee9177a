import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { ReadinessCheck } from "../app/services.server";

/**
 * GET /healthz (the process is alive: no database, nothing to wait for) and GET /readyz (it can
 * work: docs/decisions/031), for load balancers and orchestrators. Answered before anything else
 * in the app (no session, no rate limit, no compression), never cached, and not logged: a probe
 * every few seconds must not fill the log. Answers true when it handled the request.
 */
export function answerHealth(readiness: ReadinessCheck, req: IncomingMessage, res: ServerResponse): boolean {
  const pathname = (req.url ?? "").split("?")[0];
  if (pathname !== "/healthz" && pathname !== "/readyz") return false;
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("allow", "GET, HEAD");
    send(405, { error: "Method not allowed" });
  } else if (pathname === "/healthz") {
    send(200, { alive: true, pid: process.pid });
  } else {
    readiness.check().then(
      (r) => send(r.ready ? 200 : 503, r),
      // the check catches its own failures; this is for the unforeseen, still never a 500
      () => send(503, { ready: false }),
    );
  }
  return true;
}

/** The health answers alone on `port`, for a process that serves nothing else (the worker). */
export async function listenForHealth(readiness: ReadinessCheck, port: number) {
  const server = http.createServer((req, res) => {
    if (!answerHealth(readiness, req, res)) {
      res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: "Not found" }));
    }
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, () => resolve()));
  return server;
}
