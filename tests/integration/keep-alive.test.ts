import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** One GET through `agent`: its status and whether it went over a connection kept from before. */
function get(agent: http.Agent, url: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on("error", reject);
  });
}

describe("keep-alive connections", () => {
  it("are kept open longer than Node's 5 s default, so a client reusing one after a pause is answered on it", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, `${server.url}/login`);
      expect(first).toEqual({ status: 200, reused: false });
      // past Node's default keep-alive timeout: a server on the default has closed the socket by now
      await new Promise((r) => setTimeout(r, 6_000));
      const second = await get(agent, `${server.url}/login`);
      expect(second).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
