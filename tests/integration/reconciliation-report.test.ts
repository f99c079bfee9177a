/**
 * The reconciliation report (issue 19 point 4; spec 3 sections 2, 6, 7 and 9): the template,
 * POST /api/old_reconciliations with its thresholds, per-line results and errors, the result
 * file, the admin-only rerate, and scoping (another customer's consignment is not found for a
 * customer's finance user). Lines are checked against the demo's rated, despatched consignments.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { REPORT_COLUMNS, REPORT_MESSAGES, RESULT_COLUMNS } from "../../app/modules/reconciliation/report-csv";
import { parseCsv } from "../../app/utils/csv.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { Client, startTestServer, type TestServer } from "../support/server";

import type { Json } from "../support/despatch";
let server: TestServer;
const clients = {} as Record<"admin" | "finance" | "despatcher" | "customerService", Client>;
/** demo consignments of the finance user's customer, with their rated buy (GST left out) in cents */
let rated: Array<{ number: string; buy: number; weight: number; from_zone: string; to_zone: string }>;
let otherNumber: string;

const header = REPORT_COLUMNS.join(",");
const dollars = (cents: number) => (cents / 100).toFixed(2);

async function upload(client: Client, csv: string, query = "", filename = "charges.csv") {
  const form = new FormData();
  form.append("file", new Blob([csv], { type: "text/csv" }), filename);
  const res = await fetch(`${server.url}/api/old_reconciliations${query}`, { method: "POST", headers: { cookie: client.cookie, "X-Requested-With": "XMLHttpRequest", Accept: "application/json" }, body: form });
  return { status: res.status, body: (await res.json()) as Json };
}
const get = (client: Client, path: string) => fetch(`${server.url}${path}`, { headers: { cookie: client.cookie, "X-Requested-With": "XMLHttpRequest" } });

beforeAll(async () => {
  server = await startTestServer();
  await loadLocalities(server.db);
  expect(await seedDemoIfEmpty(server.db)).toBe(true);
  const emails = { admin: "admin@example.com", finance: "finance@example.com", despatcher: "despatcher@example.com", customerService: "customerservice@example.com" };
  for (const [k, email] of Object.entries(emails)) {
    clients[k as keyof typeof clients] = new Client(server.url);
    expect((await clients[k as keyof typeof clients].signIn(email)).status).toBe(200);
  }
  const rows = rowsOf<{ number: string; detail: Json }>(
    await server.db.execute(sql`select c.consignment_number as number, c.rating_detail as detail from consignments c
      where c.customer_id = (select customer_id from users where email = 'finance@example.com') and c.rating_detail is not null and c.consignment_number is not null
        and c.state = 'despatched' order by c.id`),
  );
  rated = rows
    .map((r) => ({
      number: r.number,
      buy: (r.detail.buy as Array<{ category: string; amount: number }>).filter((l) => l.category !== "gst").reduce((a, l) => a + Math.round(l.amount * 100), 0),
      weight: Number(r.detail.charge_weight),
      from_zone: String(r.detail.from_zone),
      to_zone: String(r.detail.to_zone),
    }))
    .filter((r) => r.buy > 0);
  expect(rated.length).toBeGreaterThanOrEqual(3);
  // a rated consignment of another customer (the demo's test customer)
  otherNumber = `OTHER${Date.now()}`;
  await server.db.execute(sql`insert into consignments (customer_id, site_id, consignment_number, state, rating_detail)
    select s.customer_id, s.id, ${otherNumber}, 'despatched', '{"buy":[{"category":"freight_charge","amount":50}],"sell":[{"category":"freight_charge","amount":60}]}'::jsonb
    from sites s join customers c on c.id = s.customer_id where c.code = 'TESTCO' limit 1`);
}, 240_000);
afterAll(() => server.close());

describe("GET /api/reconciliations_template", () => {
  it("answers the header the upload takes and one example row, to finance users only", async () => {
    const res = await get(clients.finance, "/api/reconciliations_template");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toContain("reconciliation_template.csv");
    const text = await res.text();
    const parsed = await parseCsv(text);
    expect(parsed.headers).toEqual([...REPORT_COLUMNS]);
    expect(parsed.rows).toHaveLength(1);
    // the template goes back in as it is: its example consignment does not exist
    const back = await upload(clients.finance, text);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.summary).toMatchObject({ lines: 1, not_found: 1, skipped: 0 });
    expect((await get(clients.despatcher, "/api/reconciliations_template")).status).toBe(403);
    expect((await fetch(`${server.url}/api/reconciliations_template`, { headers: { "X-Requested-With": "XMLHttpRequest" } })).status).toBe(401);
  });
});

describe("POST /api/old_reconciliations", () => {
  it("reports each line against its rating at the thresholds' edges, lists bad lines by number and keeps the result file", async () => {
    const [a, b, c] = rated;
    const edge = Math.floor((c!.buy * 2) / 100); // 2 % of c's rated buy, rounded down to the cent
    const csv = [
      header,
      `${a!.number},${dollars(a!.buy)},${a!.weight},${a!.from_zone},${a!.to_zone}`, // 2 exact
      `${a!.number},${dollars(a!.buy + 20)},,,`, // 3 at the flat edge
      `${a!.number},${dollars(a!.buy + 21 + edge * 0)},,,`, // 4 a cent past it (percentage 0 below)
      `${b!.number.toLowerCase()},${dollars(b!.buy - 20)},${b!.weight + 5},,XX`, // 5 less by the edge; another weight and zone
      "NOSUCH123,10.00,,,", // 6 not found
      ",10.00,,,", // 7 no number
      `${c!.number},ten,,,`, // 8 bad amount
      "=HYPERLINK(1),1,,,", // 9 a formula as a number: not found, neutralised in the file
    ].join("\n");
    const res = await upload(clients.finance, csv, "?threshold_amount=0.2&threshold_percentage=0");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = res.body;
    expect(r).toMatchObject({ threshold_amount: 0.2, threshold_percentage: 0, rerate: false, file_name: "charges.csv" });
    expect(r.summary).toEqual({ lines: 8, within: 3, outside: 1, not_found: 2, not_rated: 0, skipped: 2, variance: 0 + 20 + 21 - 20 });
    expect(r.line_errors).toEqual([
      { line: 7, message: REPORT_MESSAGES.numberRequired },
      { line: 8, message: REPORT_MESSAGES.amountInvalid },
    ]);
    const byLine = new Map<number, Json>(r.results.map((x: Json) => [x.line, x]));
    expect(byLine.get(2)).toMatchObject({ status: "Within thresholds", rated_buy: dollars(a!.buy), variance: "0.00", variance_percentage: "0.00", differences: "" });
    expect(byLine.get(3)).toMatchObject({ status: "Within thresholds", variance: "0.20" });
    expect(byLine.get(4)).toMatchObject({ status: "Outside thresholds", variance: "0.21" });
    expect(byLine.get(5)).toMatchObject({ status: "Within thresholds", variance: "-0.20", differences: "charge weight; to zone", consignment_number: b!.number.toLowerCase() });
    expect(byLine.get(6)).toMatchObject({ status: "Consignment not found", rated_buy: "", variance: "" });

    // the percentage edge: 2 % of the rated buy is within, a cent more is not
    const pct = await upload(clients.finance, [header, `${c!.number},${dollars(c!.buy + edge)},,,`, `${c!.number},${dollars(c!.buy + edge + 1)},,,`].join("\n"), "?threshold_amount=0&threshold_percentage=2");
    expect(pct.body.results.map((x: Json) => x.status)).toEqual(["Within thresholds", "Outside thresholds"]);

    // the result file: every line in order, skipped ones with their message, formulas neutralised
    const file = await get(clients.finance, r.download_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("charges_result.csv");
    const parsed = await parseCsv(await file.text());
    expect(parsed.headers).toEqual([...RESULT_COLUMNS]);
    expect(parsed.rows.map((x) => x.values.line)).toEqual(["2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(parsed.rows[5]!.values).toMatchObject({ status: "Skipped", differences: REPORT_MESSAGES.numberRequired });
    expect(parsed.rows[7]!.values.consignment_number).toBe("'=HYPERLINK(1)");
    expect(parsed.rows[3]!.values).toMatchObject({ rated_buy: dollars(b!.buy), charge_weight: String(b!.weight + 5), rated_charge_weight: String(b!.weight) });

    // recorded with its summary and uploader
    const [rec] = rowsOf<Json>(await server.db.execute(sql`select r.file_name, r.rerate, r.threshold_amount, r.threshold_percentage, r.summary, u.email from reconciliation_reports r join users u on u.id = r.user_id where r.id = ${r.id}`));
    expect(rec).toMatchObject({ file_name: "charges.csv", rerate: false, threshold_amount: "0.2", threshold_percentage: "0", email: "finance@example.com" });
    expect(rec!.summary).toMatchObject({ lines: 8, within: 3, outside: 1, skipped: 2 });

    // staff may fetch it; another user who did not upload it is told it does not exist
    expect((await get(clients.admin, r.download_url)).status).toBe(200);
    const mine = await upload(clients.admin, `${header}\n${a!.number},1,,,`);
    expect((await get(clients.finance, mine.body.download_url)).status).toBe(404);
    expect((await get(clients.finance, "/api/old_reconciliations/999999")).status).toBe(404);
  });

  it("takes the spec's defaults (0.2 and 2) and refuses thresholds that are not numbers or too long", async () => {
    const [a] = rated;
    const line = `${header}\n${a!.number},${dollars(a!.buy)},,,`;
    expect((await upload(clients.finance, line)).body).toMatchObject({ threshold_amount: 0.2, threshold_percentage: 2 });
    const long = await upload(clients.finance, line, "?threshold_amount=1000.00&threshold_percentage=12345");
    expect(long.status).toBe(422);
    expect(long.body.errors).toMatchObject({ threshold_amount: [REPORT_MESSAGES.thresholdAmount], threshold_percentage: [REPORT_MESSAGES.thresholdPercentage] });
    expect((await upload(clients.finance, line, "?threshold_amount=abc")).body.errors.threshold_amount).toEqual([REPORT_MESSAGES.thresholdAmount]);
    expect((await upload(clients.finance, line, "?threshold_percentage=-1")).status).toBe(422);
  });

  it("refuses a file it cannot reconcile: not csv, empty, header only, wrong header, too large", async () => {
    const [a] = rated;
    const good = `${header}\n${a!.number},1,,,`;
    const notCsv = await upload(clients.finance, good, "", "charges.xlsx");
    expect(notCsv).toMatchObject({ status: 422, body: { errors: { file: ["Only csv files can be imported."] } } });
    expect((await upload(clients.finance, "", "")).status).toBe(422);
    const blank = await upload(clients.finance, "\n  \n");
    expect(blank).toMatchObject({ status: 422, body: { errors: { file: [REPORT_MESSAGES.empty] } } });
    expect((await upload(clients.finance, `${header}\n`)).body.errors.file).toEqual([REPORT_MESSAGES.headerOnly]);
    expect((await upload(clients.finance, "number,amount\nX,1\n")).body.errors.file).toEqual([REPORT_MESSAGES.header]);
    const big = await upload(clients.finance, `${good}\n${"X".repeat(10 * 1024 * 1024)}`);
    expect(big).toMatchObject({ status: 422, body: { errors: { file: ["The file is larger than 10 MB."] } } });
    // nothing recorded for a refused file
    const counted = rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from reconciliation_reports where file_name = 'charges.xlsx'`));
    expect(counted[0]!.n).toBe(0);
  });

  it("shows a customer's finance user only their own consignments; staff see every customer's", async () => {
    const csv = `${header}\n${otherNumber},50.00,,,`;
    expect((await upload(clients.finance, csv)).body.results[0]).toMatchObject({ status: "Consignment not found", rated_buy: "" });
    expect((await upload(clients.admin, csv)).body.results[0]).toMatchObject({ status: "Within thresholds", rated_buy: "50.00" });
    expect((await upload(clients.customerService, csv)).body.results[0]).toMatchObject({ status: "Within thresholds" });
    expect((await upload(clients.despatcher, csv)).status).toBe(403);
  });

  it("re-rates with the weights given for admins only, the new prices beside the old", async () => {
    const [a] = rated;
    const csv = [header, `${a!.number},${dollars(a!.buy)},${a!.weight},,`, `${a!.number},${dollars(a!.buy)},${a!.weight * 4},,`, "NOSUCH9,1,,,"].join("\n");
    expect((await upload(clients.finance, csv, "?rerate=true")).status).toBe(403);
    expect((await upload(clients.customerService, csv, "?rerate=true")).status).toBe(403);
    const res = await upload(clients.admin, csv, "?rerate=true");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rerate).toBe(true);
    const [same, heavier, missing] = res.body.results as Json[];
    // the weight it was rated with gives the price it was rated at
    expect(same, JSON.stringify(same)).toMatchObject({ rerated_buy: dollars(a!.buy), rerate_error: "" });
    expect(Number(same!.original_sell)).toBeGreaterThan(0);
    expect(Number(same!.rerated_sell)).toBeCloseTo(Number(same!.original_sell), 2);
    expect(Number(heavier!.rerated_buy)).toBeGreaterThan(Number(same!.rerated_buy));
    expect(missing).toMatchObject({ status: "Consignment not found", rerated_buy: "", rerate_error: "" });
    const [rec] = rowsOf<Json>(await server.db.execute(sql`select rerate from reconciliation_reports where id = ${res.body.id}`));
    expect(rec!.rerate).toBe(true);
  });
});
