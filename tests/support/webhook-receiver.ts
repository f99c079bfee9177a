/**
 * A webhook receiver on loopback for the webhooks tests (docs/decisions/039): it records every
 * request, and answers by path: /ok 200, /fail 500, /hang never, /redirect 302, /big 200 with 4 KB.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export async function startReceiver() {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (path.startsWith("/hang")) return void hanging.add(res);
      if (path.startsWith("/fail")) return void res.writeHead(500, { "content-type": "text/plain" }).end("receiver is down");
      if (path.startsWith("/redirect")) return void res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
      if (path.startsWith("/big")) return void res.writeHead(200).end("x".repeat(4096));
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    /** what reached `path` so far, parsed */
    at: (path: string) => received.filter((r) => r.path === path),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
