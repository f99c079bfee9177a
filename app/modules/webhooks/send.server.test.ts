import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attempt, RESPONSE_KEPT_BYTES } from "./send.server";

let server: http.Server;
let base = "";
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      // an answer far longer than what is kept: the sender stops reading and drops the connection
      if (req.url === "/long") res.end("x".repeat(RESPONSE_KEPT_BYTES * 128));
      else res.end("ok");
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const send = (path: string) => attempt(`${base}${path}`, {}, "{}", { allowLocal: true });

describe("a delivery's connection", () => {
  it("is kept for the next delivery to the same receiver once its answer was read", async () => {
    const before = connections;
    for (let i = 0; i < 3; i++) expect((await send("/ok")).ok).toBe(true);
    expect(connections - before).toBe(1);
  });

  it("is dropped when the answer was not read to its end, and the next delivery opens another", async () => {
    const before = connections;
    const long = await send("/long");
    expect(long.ok).toBe(true);
    expect(long.response).toHaveLength(RESPONSE_KEPT_BYTES);
    expect((await send("/ok")).ok).toBe(true);
    expect(connections - before).toBeGreaterThanOrEqual(1);
    const after = connections;
    expect((await send("/ok")).ok).toBe(true);
    expect(connections).toBe(after);
  });
});
