import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";

/**
 * How app/entry.server.tsx sends a page. It arms a timer to abort a render that has not finished in 5 s. A page
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

it("sends a page whole in one answer framed by its length, Remix's data in place (decision 047)", async () => {
  const page = await fetch(`${server.url}/login`, { headers: { "accept-encoding": "identity" } });
  const body = Buffer.from(await page.arrayBuffer());
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(page.headers.get("transfer-encoding")).toBeNull();
  expect(Number(page.headers.get("content-length"))).toBe(body.byteLength);
  const html = body.toString("utf8");
  // the data Remix sends after the shell is in the page, closed, with no React script to move it
  expect(html).toContain("window.__remixContext.streamController.close();");
  expect(html).not.toContain("$RC");
  expect(html).not.toContain("\u0000");
  expect(html).toContain("</body></html>");
});
