/**
 * GET /api/reconciliations (issue 19 item 2; spec 3 sections 2, 7 and 9): the tabs, every filter,
 * every sort, pagination with the saved page size, the meta_data counts and totals, scoping of a
 * customer's finance user, roles and bad input. The rows are made here on two invoices of our own
 * (one per customer) so the demo's reconciled lines do not move the numbers.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, customers, invoiceDetails, invoices, reconciliations, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { pageWindow } from "../../app/modules/reconciliation/list-schemas";
import { rowsOf } from "../../app/utils/sql-rows";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { admin: "admin@example.com", finance: "finance@example.com", despatcher: "despatcher@example.com", customerService: "customerservice@example.com" };
const c = {} as Record<keyof typeof EMAILS, Client>;
const ids = {} as Record<"northline" | "auspost" | "acme" | "testco" | "mine" | "theirs" | "paged", number>;
const STATES = ["reconciling", "disputed", "reconciled"] as const;
const REASONS = [["zone"], ["surcharge"], ["check_wt_vol", "zone"], ["incorrect_rate"], []] as const;

/** line n of 25 on ACME's invoice: state, zones, weight, margin and discrepancy known from n */
const expected = (n: number) => ({
  state: STATES[n % 3]!,
  consignment_number: `RLC${String(n).padStart(3, "0")}`,
  from_zone: ["MEL", "SYD", "BNE"][n % 3]!,
  to_zone: n % 2 ? "PER" : "ADL",
  weight: n * 1.5,
  margin: n - 10,
  discrepancy_amount: 25 - n,
  reason_categories: [...REASONS[n % 5]!],
});

async function invoiceWith(carrierId: number, customerId: number, number: string, count: number, line: (n: number) => ReturnType<typeof expected>) {
  const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: number, carrierId, state: "allocated", total: "0" }).returning();
  for (let n = 1; n <= count; n++) {
    const e = line(n);
    const [d] = await server.db
      .insert(invoiceDetails)
      .values({ invoiceId: inv!.id, lineNumber: n, carrierId, customerId, state: "allocated", consignmentNumber: e.consignment_number, senderZone: e.from_zone, receiverZone: e.to_zone, totalChargeWeight: e.weight.toFixed(3), totalCost: "10" })
      .returning();
    await server.db.insert(reconciliations).values({
      invoiceDetailId: d!.id,
      customerId,
      carrierId,
      state: e.state,
      reasonCategories: e.reason_categories,
      margin: e.margin.toFixed(2),
      discrepancyAmount: e.discrepancy_amount.toFixed(2),
      invoiced: "10",
    });
  }
  return inv!.id;
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  Object.assign(c, await signInAll(server.url, EMAILS));
  const carrier = async (code: string) => (await server.db.select().from(carriers).where(eq(carriers.code, code)))[0]!.id;
  const customer = async (code: string) => (await server.db.select().from(customers).where(eq(customers.code, code)))[0]!.id;
  ids.northline = await carrier("NORTHLINE");
  ids.auspost = await carrier("auspost");
  ids.acme = await customer("ACME");
  ids.testco = await customer("TESTCO");
  ids.mine = await invoiceWith(ids.northline, ids.acme, "RL-ACME-1", 25, expected);
  ids.theirs = await invoiceWith(ids.auspost, ids.testco, "RL-TEST-1", 3, (n) => ({ ...expected(n), consignment_number: `RLT${n}` }));
  // enough Un-Reconciled lines for three pages
  ids.paged = await invoiceWith(ids.northline, ids.acme, "RL-PAGES", 45, (n) => ({ ...expected(n), state: "reconciling", consignment_number: `RLP${n}` }));
}, 180_000);
afterAll(() => server?.close());

const list = (client: Client, query: string) => client.json<Json>(`/api/reconciliations?${query}`);
const numbers = (body: Json) => body.reconciliations.map((r: Json) => r.consignment_number);
const mineIn = (state: string) =>
  Array.from({ length: 25 }, (_, i) => i + 1)
    .filter((n) => expected(n).state === state)
    .map((n) => expected(n));

describe("GET /api/reconciliations", () => {
  it("shows the Un-Reconciled tab by default, newest first, with the row's fields and pagination", async () => {
    const { status, body } = await list(c.admin, `invoice_id=${ids.mine}`);
    expect(status).toBe(200);
    const want = mineIn("reconciling");
    expect(body.pagination).toEqual({ current_page: 1, total_pages: 1, total_records: want.length, per_page: 20 });
    expect(numbers(body)).toEqual(want.map((w) => w.consignment_number).reverse());
    const first = body.reconciliations.at(-1);
    expect(first).toMatchObject({ ...want[0], invoice_number: "RL-ACME-1", invoice_id: ids.mine, carrier_code: "NORTHLINE", customer_id: ids.acme, customer_name: expect.any(String), version: 1 });
    expect(first.reconciliation_reasons).toEqual(want[0]!.reason_categories.map((reason) => ({ reason })));
  });

  it("filters by each column, the reasons (any of), carrier and customer", async () => {
    const all = (state: string) => mineIn(state).map((w) => w.consignment_number).sort();
    const get = async (q: string, state = "reconciled") => numbers((await list(c.admin, `state=${state}&invoice_id=${ids.mine}&${q}`)).body).sort();
    expect(await get("")).toEqual(all("reconciled"));
    // numbers from their start, case aside
    expect(await get("consignment_number=rlc01")).toEqual(["RLC011", "RLC014", "RLC017"]);
    expect(await get("consignment_number=LC01")).toEqual([]);
    expect(await get("invoice_number=rl-acme")).toEqual(all("reconciled"));
    expect(await get("invoice_number=RL-TEST")).toEqual([]);
    // zones whole, case aside
    expect(await get("from_zone=bne")).toEqual(all("reconciled"));
    expect(await get("from_zone=BN")).toEqual([]);
    expect(await get("to_zone=PER", "reconciling")).toEqual(mineIn("reconciling").filter((w) => w.to_zone === "PER").map((w) => w.consignment_number).sort());
    // numbers equal to what is typed
    expect(await get("weight=12")).toEqual(["RLC008"]);
    expect(await get("margin=-5")).toEqual(["RLC005"]);
    expect(await get("discrepancy=5.00")).toEqual(["RLC020"]);
    // any of the reasons chosen
    const withReasons = (rs: string[]) => mineIn("reconciling").filter((w) => w.reason_categories.some((r) => rs.includes(r))).map((w) => w.consignment_number).sort();
    expect(await get("reasons=surcharge,incorrect_rate", "reconciling")).toEqual(withReasons(["surcharge", "incorrect_rate"]));
    expect(await get("reasons=zone", "reconciling")).toEqual(withReasons(["zone"]));
    // carrier by code, customer by id
    expect(await get("carrier_code=northline")).toEqual(all("reconciled"));
    expect(await get("carrier_code=auspost")).toEqual([]);
    expect(await get("carrier_code=NOPE")).toEqual([]);
    expect(numbers((await list(c.admin, `state=reconciled&customer_id=${ids.testco}`)).body)).toEqual(["RLT2"]);
  });

  it("sorts by every column both ways, ties by id", async () => {
    const q = `state=disputed&invoice_id=${ids.mine}`;
    const want = mineIn("disputed");
    const by = (key: keyof ReturnType<typeof expected>) => [...want].sort((a, b) => ((a[key] as number | string) < (b[key] as number | string) ? -1 : (a[key] as number | string) > (b[key] as number | string) ? 1 : 0)).map((w) => w.consignment_number);
    for (const [order_by, key] of [
      ["consignment_number", "consignment_number"],
      ["from_zone", "consignment_number"],
      ["weight", "weight"],
      ["margin", "margin"],
      ["discrepancy", "discrepancy_amount"],
    ] as const) {
      const asc = numbers((await list(c.admin, `${q}&order_by=${order_by}&order_direction=asc`)).body);
      const desc = numbers((await list(c.admin, `${q}&order_by=${order_by}&order_direction=desc`)).body);
      // every disputed line has the same from zone (n % 3 = 1: SYD): the id decides, as the tie-break
      expect(asc, order_by).toEqual(by(key));
      expect(desc, order_by).toEqual(by(key).reverse());
    }
    const tabs = await list(c.admin, `state=reconciling&order_by=invoice_number&order_direction=asc&per_page=150`);
    const invoiceNumbers = tabs.body.reconciliations.map((r: Json) => r.invoice_number);
    expect(invoiceNumbers).toEqual([...invoiceNumbers].sort());
    expect((await list(c.admin, "order_by=invoice_detail_id")).status).toBe(422);
  });

  it("pages with the saved page size, and answers the tabs' counts and the tab's totals as meta_data", async () => {
    const all = await list(c.admin, "state=reconciling&per_page=150");
    const total = all.body.pagination.total_records;
    expect(total).toBeGreaterThan(45);
    const page2 = await list(c.admin, "state=reconciling&page=2");
    expect(page2.body.pagination).toEqual({ current_page: 2, total_pages: Math.ceil(total / 20), total_records: total, per_page: 20 });
    expect(numbers(page2.body)).toEqual(numbers(all.body).slice(20, 40));
    // the saved option is the default page size
    const [admin] = await server.db.select().from(users).where(eq(users.email, EMAILS.admin));
    await server.db.update(users).set({ options: sql`${users.options} || '{"reconciliation_per_page": 50}'::jsonb` }).where(eq(users.id, admin!.id));
    expect((await list(c.admin, "state=reconciling")).body.pagination.per_page).toBe(50);
    await server.db.update(users).set({ options: sql`${users.options} - 'reconciliation_per_page'` }).where(eq(users.id, admin!.id));

    const meta = await list(c.admin, `meta_data=true&invoice_id=${ids.mine}&state=disputed`);
    expect(meta.status).toBe(200);
    const count = (s: string) => mineIn(s).length;
    const sum = (s: string, k: "margin" | "discrepancy_amount") => mineIn(s).reduce((t, w) => t + w[k], 0);
    expect(meta.body).toEqual({ states: { reconciling: count("reconciling"), disputed: count("disputed"), reconciled: count("reconciled") }, totals: { margin: sum("disputed", "margin"), discrepancy: sum("disputed", "discrepancy_amount") } });
    // the filters apply to the counts too
    const filtered = await list(c.admin, `meta_data=true&invoice_id=${ids.mine}&reasons=surcharge`);
    expect(Object.values(filtered.body.states as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(5);
  });

  it("shows a customer's finance user their customer's lines only", async () => {
    const mine = await list(c.finance, "state=reconciled&per_page=150");
    expect(mine.status).toBe(200);
    expect(mine.body.reconciliations.every((r: Json) => r.customer_id === ids.acme)).toBe(true);
    expect(numbers(mine.body)).not.toContain("RLT2");
    expect(numbers((await list(c.finance, `state=reconciled&invoice_id=${ids.theirs}`)).body)).toEqual([]);
    expect(numbers((await list(c.finance, `state=reconciled&customer_id=${ids.testco}`)).body)).toEqual([]);
    const meta = await list(c.finance, `meta_data=true&invoice_id=${ids.theirs}`);
    expect(meta.body.states).toEqual({ reconciling: 0, disputed: 0, reconciled: 0 });
  });

  it("refuses the signed out (401), despatchers (403) and bad parameters (422)", async () => {
    expect((await new Client(server.url).json("/api/reconciliations")).status).toBe(401);
    expect((await list(c.despatcher, "")).status).toBe(403);
    expect((await list(c.customerService, "")).status).toBe(200);
    for (const bad of ["state=open", "per_page=25", "page=0", "reasons=late", "order_direction=up", "weight=heavy", "invoice_id=x"]) {
      const res = await list(c.admin, bad);
      expect(res.status, bad).toBe(422);
      expect(Object.keys(res.body.errors)[0], bad).toMatch(new RegExp(`^${bad.split("=")[0]}`));
    }
  });
});

describe("pageWindow", () => {
  it("shows at most 5 page numbers around the current one, with gaps marked", () => {
    expect(pageWindow(1, 1)).toEqual({ pages: [1], gapBefore: false, gapAfter: false });
    expect(pageWindow(1, 9)).toEqual({ pages: [1, 2, 3, 4, 5], gapBefore: false, gapAfter: true });
    expect(pageWindow(5, 9)).toEqual({ pages: [3, 4, 5, 6, 7], gapBefore: true, gapAfter: true });
    expect(pageWindow(9, 9)).toEqual({ pages: [5, 6, 7, 8, 9], gapBefore: true, gapAfter: false });
    expect(pageWindow(2, 4)).toEqual({ pages: [1, 2, 3, 4], gapBefore: false, gapAfter: false });
  });
});

describe("the list screens", () => {
  const html = async (client: Client, path: string, form?: Record<string, string>) => {
    const res = await client.request(path, { method: form ? "POST" : "GET", form, headers: { Accept: "text/html" } });
    // without the markers React puts between adjacent texts
    return { status: res.status, text: (await res.text()).replaceAll("<!-- -->", "") };
  };

  it("renders the tabs with counts, totals, rows with their links, and the empty message", async () => {
    const { status, text } = await html(c.admin, `/invoices/${ids.mine}/reconciliations?state=disputed&order_by=margin`);
    expect(status).toBe(200);
    const want = mineIn("disputed");
    expect(text).toContain(`Disputed <span class="tabular-nums">(${want.length})</span>`);
    expect(text).toContain(`Un-Reconciled <span class="tabular-nums">(${mineIn("reconciling").length})</span>`);
    expect(text).toContain("Total margin");
    expect(text).toContain(`href="/invoice/${ids.mine}"`);
    expect(text).toMatch(/href="\/reconciliation\/\d+"/);
    expect(text).toContain(want[0]!.consignment_number);
    // Accept and Reset may act on the Disputed tab; Dispute and Use Con Costs may not
    expect(text).toMatch(/<button[^>]*value="dispute"[^>]*disabled/);
    expect(text).not.toMatch(/<button[^>]*value="accept"[^>]*disabled/);
    const empty = await html(c.admin, `/invoices/${ids.mine}/reconciliations?consignment_number=NOTHING`);
    expect(empty.text).toContain("There are no reconciliations to display.");
    // another customer's invoice is not there for a customer's finance user
    expect((await html(c.finance, `/invoices/${ids.theirs}/reconciliations`)).status).toBe(404);
  });

  it("asks for the note in a dialog and shows the result per line, without JavaScript", async () => {
    const [target] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: "RL-SCREEN", carrierId: ids.northline, state: "allocated" }).returning();
    const [d] = await server.db.insert(invoiceDetails).values({ invoiceId: target!.id, lineNumber: 1, carrierId: ids.northline, customerId: ids.acme, state: "allocated", consignmentNumber: "SCREEN1" }).returning();
    const [r] = await server.db.insert(reconciliations).values({ invoiceDetailId: d!.id, customerId: ids.acme, carrierId: ids.northline, state: "reconciling" }).returning();
    const path = `/invoices/${target!.id}/reconciliations`;
    const confirm = await html(c.admin, path, { intent: "confirm", action: "dispute", ids: String(r!.id) });
    expect(confirm.text).toContain('data-testid="bulk-dialog"');
    expect(confirm.text).toContain("Dispute 1 reconciliation");
    const noNote = await html(c.admin, path, { intent: "bulk", action: "dispute", ids: String(r!.id), note: " " });
    expect(noNote.status).toBe(422);
    expect(noNote.text).toContain("Note needed for bulk updating reconciliations.");
    const done = await html(c.admin, path, { intent: "bulk", action: "dispute", ids: String(r!.id), note: "Wrong zone" });
    expect(done.text).toContain("1 reconciliation disputed.");
    expect(done.text).toContain("SCREEN1: Disputed");
    const reset = await html(c.admin, path, { intent: "bulk", action: "reset", ids: "99999999" });
    expect(reset.text).toContain("Failed to reset reconciliations, No such reconciliation.");
    // a customer's finance user reads, but may not act
    expect((await html(c.finance, path, { intent: "bulk", action: "accept", ids: String(r!.id), note: "x" })).status).toBe(403);
  });

  it("Invoice sends the chosen reconciled lines to the invoicing job, and says so when none can be invoiced", async () => {
    const recs = await server.db
      .select({ id: reconciliations.id, detail: reconciliations.invoiceDetailId, state: reconciliations.state })
      .from(reconciliations)
      .innerJoin(invoiceDetails, eq(invoiceDetails.id, reconciliations.invoiceDetailId))
      .where(eq(invoiceDetails.invoiceId, ids.mine))
      .orderBy(reconciliations.id);
    const reconciled = recs.filter((r) => r.state === "reconciled");
    const other = recs.find((r) => r.state === "reconciling")!;
    const path = "/reconciliations?state=reconciled";
    const confirm = await html(c.admin, path, { intent: "confirm", action: "invoice", ids: String(reconciled[0]!.id) });
    expect(confirm.text).toContain("Invoice 1 reconciliation");
    const res = await c.admin.request(path, { method: "POST", form: [...[...reconciled, other].map((r): [string, string] => ["ids", String(r.id)]), ["intent", "bulk"], ["action", "invoice"]], headers: { Accept: "text/html" } });
    expect(res.status).toBe(302);
    const job = new URL(res.headers.get("location")!, "http://x").searchParams.get("invoice_job");
    const [queued] = rowsOf<{ data: { invoiceDetailIds: number[] } }>(await server.db.execute(sql`select payload as data from jobs where id = ${job}::uuid`));
    // the Un-Reconciled line is left out: only reconciled lines are invoiceable
    expect(queued?.data.invoiceDetailIds).toEqual(reconciled.map((r) => r.detail).sort((a, b) => a - b));
    const none = await html(c.admin, path, { intent: "bulk", action: "invoice", ids: String(other.id) });
    expect(none.status).toBe(422);
    expect(none.text).toContain("None of those lines can be invoiced");
    expect((await html(c.finance, path, { intent: "bulk", action: "invoice", ids: String(reconciled[0]!.id) })).status).toBe(403);
  });

  it("saves the page size as the user's reconciliation_per_page", async () => {
    const res = await c.customerService.request("/reconciliations", { method: "POST", form: { intent: "per_page", per_page: "100" } });
    expect(res.status).toBe(302);
    const [u] = await server.db.select().from(users).where(eq(users.email, EMAILS.customerService));
    expect(u!.options.reconciliation_per_page).toBe(100);
    expect((await list(c.customerService, "")).body.pagination.per_page).toBe(100);
  });

  it("Reconcile on payable invoices starts the reconcile job for the chosen invoices, or else the allocated ones in view", async () => {
    const post = (client: Client, form: Record<string, string>) => client.request("/invoices_payable?state=allocated", { method: "POST", form, headers: { Accept: "text/html" } });
    const chosen = await post(c.admin, { intent: "reconcile", invoice_ids: String(ids.mine), allocated_in_view: String(ids.theirs) });
    expect(chosen.status).toBe(302);
    const job = new URL(chosen.headers.get("location")!, "http://x").searchParams.get("reconcile_job");
    expect(job).toBeTruthy();
    const [queued] = rowsOf<{ data: { invoiceIds: number[] } }>(await server.db.execute(sql`select payload as data from jobs where id = ${job}::uuid`));
    expect(queued?.data.invoiceIds).toEqual([ids.mine]);
    const inView = await post(c.admin, { intent: "reconcile", allocated_in_view: String(ids.theirs) });
    const viewJob = new URL(inView.headers.get("location")!, "http://x").searchParams.get("reconcile_job");
    const [queuedView] = rowsOf<{ data: { invoiceIds: number[] } }>(await server.db.execute(sql`select payload as data from jobs where id = ${viewJob}::uuid`));
    expect(queuedView?.data.invoiceIds).toEqual([ids.theirs]);
    const none = await post(c.admin, { intent: "reconcile" });
    expect(none.status).toBe(422);
    // reconciling is an invoice admin's action
    expect((await post(c.customerService, { intent: "reconcile", invoice_ids: String(ids.mine) })).status).toBe(403);
  });
});
