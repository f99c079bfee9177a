/**
 * Junk, huge and hostile values to every /api call and screen Finance II added (issue 19 "Bad
 * input"): each answers 4xx with a JSON or page error, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/demo";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  client = new Client(server.url);
  expect((await client.signIn("admin@example.com")).status).toBe(200);
}, 180_000);
afterAll(() => server?.close());

const huge = "9".repeat(400);
const junkBodies: unknown[] = [null, [], "text", { ids: "abc" }, { ids: [huge] }, { ids: [-1], note: "x".repeat(10_000) }, { invoice_detail_ids: [{}] }, { period: "DAILY", options: { invoice_detail_ids: [1], invoicing_options: { day: "Funday", hour: "25:99", time_zone: "Mars/Base" } } }];
const calls: Array<[string, string]> = [
  ["PUT", "/api/reconciliations/dispute"],
  ["PUT", "/api/reconciliations/accept"],
  ["PUT", "/api/reconciliations/use_consignment_costs"],
  ["PUT", "/api/reconciliations/reset"],
  ["PUT", "/api/reconciliations/1"],
  ["PUT", `/api/reconciliations/${huge}`],
  ["POST", "/api/reconciliations/abc/reconcile"],
  ["POST", "/api/invoices"],
  ["POST", "/api/invoicing_schedules"],
  ["PUT", "/api/invoices/reconcile"],
];
const gets = [
  `/api/reconciliations?per_page=7&page=-1&order_by=drop&order_direction=up&reasons=nope&customer_id=${huge}`,
  `/api/reconciliations?meta_data=true&weight=abc&margin=1e400&consignment_number=${encodeURIComponent("%'; drop table x;--")}`,
  `/api/reconciliations/${huge}`,
  "/api/reconciliations/0",
  "/api/old_reconciliations/abc",
  `/api/old_reconciliations/${huge}`,
  `/api/invoice_details?state=invoiceable&accounting_type=junk&per_page=${huge}`,
  "/reconciliation/abc",
  `/invoices/${huge}/reconciliations`,
  `/invoices_receivable?date=custom&from=2026-99-99&to=junk&customer_id=x&modal=${huge}`,
];

describe("Finance II bad input", () => {
  it("answers every junk body to every call with a 4xx JSON error", async () => {
    // signed in as an invoice admin: the refusals below are about the input, not the role
    expect((await client.request("/api/reconciliations", { headers: { Accept: "application/json" } })).status).toBe(200);
    for (const [method, path] of calls) {
      for (const body of junkBodies) {
        const res = await client.request(path, { method, json: body, headers: { Accept: "application/json" } });
        expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`).toBeGreaterThanOrEqual(400);
        expect([401, 403], `${method} ${path}`).not.toContain(res.status);
        expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`).toBeLessThan(500);
        expect(res.headers.get("content-type") ?? "", `${method} ${path}`).toContain("application/json");
      }
    }
  });

  it("answers junk query strings and ids with a page or a 4xx, never a 500", async () => {
    for (const path of gets) {
      const res = await client.request(path, { headers: { Accept: path.startsWith("/api") ? "application/json" : "text/html" } });
      expect(res.status, path).toBeLessThan(500);
    }
  });
});
