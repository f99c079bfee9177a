import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

/**
 * app/entry.server.tsx arms a timer to abort a render that has not finished in 5 s. A page
 * rendered whole needs it no more: left to run, every view's timer held its whole render for 5 s,
 * hundreds at once under load (issue 32). The test server runs in this process, so its timers are
 * this process's.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

it("leaves no abort timer of its own behind for a page rendered whole", async () => {
  // warm: the first views start what lives on (the limiters' sweeps, the keep-alive's timers)
  for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/login`, { headers: { connection: "close" } })).status).toBe(200);
  const before = timers();
  for (let i = 0; i < 20; i++) {
    const page = await fetch(`${server.url}/login`, { headers: { connection: "close" } });
    expect(page.status).toBe(200);
    await page.text();
  }
  // Remix arms one of its own per view (single fetch's 5 s bound on the data's promises, holding
  // just an AbortController): twenty. With React's abort timer left running too, forty.
  expect(timers() - before).toBeLessThan(30);
});
