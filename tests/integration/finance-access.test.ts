/**
 * The finance access module (docs/decisions/022; issue 35 findings 2 and 3, issue 29 findings 2
 * and 7): a view is a preference, never a permission, so every role sets every view and then
 * calls every finance read; a customer's finance user reads a shared carrier invoice as their own
 * lines give it (total, counts, state, line numbers, the names it shows); the carrier's original
 * file is for staff; a finance user's POST to /invoices/allocate is a plain 403, not a server error.
 */
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { carriers, customers, invoiceDetails, invoices, reconciliations, sites, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import { putFile } from "../../app/modules/files/index.server";
import { FINANCE_ACCESS_MESSAGES } from "../../app/modules/invoices/access";
import { todayIn } from "../../app/modules/calendar/site-time";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
/** every role and flag that decides finance: who has it is FINANCE below */
const EMAILS = {
  despatcher: "despatcher@example.com",
  superDespatcher: "superdespatcher@example.com",
  exporter: "exporter@example.com",
  tester: "tester@example.com",
  finance: "finance@example.com",
  testFinance: "testfinance@example.com",
  customerService: "customerservice@example.com",
  admin: "admin@example.com",
  superAdmin: "superadmin@example.com",
  devs: "devs@example.com",
} as const;
type Who = keyof typeof EMAILS;
const FINANCE: readonly Who[] = ["finance", "testFinance", "customerService", "admin", "superAdmin", "devs"];
const c = {} as Record<Who, Client>;
const ids = {} as Record<"acme" | "testco" | "auspost" | "testSite" | "shared" | "acmeLine2" | "acmeLine5" | "reconciliation", number>;

// numbers no other fixture holds, so a body that carries one carries a buy price
const RATED_BUY = "4321.09";
const INVOICED = "5432.17";
const MARGIN = "1111.08";
const STATED_TOTAL = "9876.50";
const OTHER_RECEIVER = "Zebulon Other-Receiver";

// two days back: inside every user's default past fortnight, whatever their time zone
const invoiceDate = new Date(Date.parse(`${todayIn("Australia/Melbourne")}T00:00:00Z`) - 2 * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const customer = async (code: string) => (await server.db.select().from(customers).where(eq(customers.code, code)))[0]!.id;
  ids.acme = await customer("ACME");
  ids.testco = await customer("TESTCO");
  ids.auspost = (await server.db.select().from(carriers).where(eq(carriers.code, "auspost")))[0]!.id;
  ids.testSite = (await server.db.select().from(sites).where(eq(sites.code, "TST")))[0]!.id;
  await createUser(server.db, ids.acme, { email: EMAILS.exporter, fullName: "Eddie Exporter", canExport: true });
  await createUser(server.db, ids.testco, { email: EMAILS.testFinance, fullName: "Tess Finance", canReconcile: true });
  Object.assign(c, await signInAll(server.url, EMAILS));

  // one carrier file, three customers' lines between them (and one not yet allocated to anyone)
  const file = (await putFile(server.db, { kind: "carrier_invoice", name: "carrier-file.csv", contentType: "text/csv" }, `consignment,receiver,amount\nSHT1,${OTHER_RECEIVER},100.00\n`)).id;
  const [inv] = await server.db
    .insert(invoices)
    .values({ accountingType: "payable", invoiceNumber: "SHARED-1", invoiceDate, carrierId: ids.auspost, total: STATED_TOTAL, state: "unallocated", originalFileName: "carrier-file.csv", originalFilePath: file, originalFileType: "CSV" })
    .returning();
  ids.shared = inv!.id;
  const lines: Array<Partial<typeof invoiceDetails.$inferInsert>> = [
    { consignmentNumber: "SHT1", customerId: ids.testco, siteId: ids.testSite, state: "allocated", totalCost: "100.00", receiverName: OTHER_RECEIVER },
    { consignmentNumber: "SHA2", customerId: ids.acme, state: "allocated", totalCost: "10.00", payer: "Shared Payer" },
    { consignmentNumber: "SHT3", customerId: ids.testco, state: "unallocated", totalCost: "200.00", receiverName: OTHER_RECEIVER },
    { consignmentNumber: "SHX4", customerId: null, state: "unallocated", totalCost: "300.00" },
    { consignmentNumber: "SHA5", customerId: ids.acme, state: "allocated", totalCost: "20.25" },
    { consignmentNumber: "SHT6", customerId: ids.testco, state: "allocated", totalCost: "370.00" },
  ];
  const rows = await server.db
    .insert(invoiceDetails)
    .values(lines.map((l, i) => ({ invoiceId: inv!.id, lineNumber: i + 1, carrierId: ids.auspost, ...l })))
    .returning();
  ids.acmeLine2 = rows[1]!.id;
  ids.acmeLine5 = rows[4]!.id;
  const [rec] = await server.db
    .insert(reconciliations)
    .values({ invoiceDetailId: ids.acmeLine2, customerId: ids.acme, carrierId: ids.auspost, state: "reconciling", ratedBuy: RATED_BUY, invoiced: INVOICED, margin: MARGIN })
    .returning();
  ids.reconciliation = rec!.id;
}, 180_000);
afterAll(() => server?.close());

/** What a finance read answers: the status, where a page sends the user, and the body as text. */
async function read(who: Who, path: string, init: Parameters<Client["request"]>[1] = {}) {
  const res = await c[who].request(path, { headers: path.startsWith("/api/") ? { Accept: "application/json" } : { Accept: "text/html" }, ...init });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

/** Every finance read: the /api calls and the pages that show buy, rated_buy, invoiced or margin. */
const FINANCE_READS: Array<{ path: () => string; init?: Parameters<Client["request"]>[1] }> = [
  { path: () => "/api/reconciliations" },
  { path: () => `/api/reconciliations/${ids.reconciliation}` },
  { path: () => `/api/invoice_details?invoice_id=${ids.shared}` },
  { path: () => "/api/invoice_details?state=all" },
  { path: () => "/api/old_reconciliations?threshold_amount=1&threshold_percentage=1", init: { method: "POST", headers: { "content-type": "text/csv", Accept: "application/json" } } },
  { path: () => "/api/invoices?state=all" },
  { path: () => "/api/invoices/groups?state=all" },
  { path: () => `/api/invoices/${ids.shared}` },
  { path: () => `/api/invoices/${ids.shared}/invoice_details/${ids.acmeLine2}` },
  { path: () => "/api/invoices/search?query=SHARED" },
  { path: () => "/api/invoicing_schedules" },
  { path: () => "/api/allocation_rules" },
  { path: () => "/api/carrier_invoice_configs" },
  { path: () => "/api/reconciliations_template" },
  { path: () => "/reconciliations" },
  { path: () => `/invoices/${ids.shared}/reconciliations` },
  { path: () => `/reconciliation/${ids.reconciliation}` },
  { path: () => "/reconciliation" },
  { path: () => "/invoices_payable" },
  { path: () => "/invoices_receivable" },
  { path: () => `/invoice/${ids.shared}` },
  { path: () => `/invoice/${ids.shared}?detail=${ids.acmeLine2}` },
  { path: () => "/allocation_rules" },
  { path: () => "/carrier_invoice_configs" },
];

describe("a view is a preference, never a permission", () => {
  it("lets only users with finance choose the FINANCE view, and anyone choose DESPATCHER", async () => {
    for (const who of Object.keys(EMAILS) as Who[]) {
      const [me] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, EMAILS[who]));
      for (const view of ["FINANCE", "DESPATCHER"] as const) {
        const res = await c[who].json<Json>(`/api/update_user_options/${me!.id}`, { method: "PUT", json: { options: { view } } });
        const allowed = view === "DESPATCHER" || FINANCE.includes(who);
        expect(res.status, `${who} sets ${view}`).toBe(allowed ? 200 : 403);
        if (!allowed) expect(res.body.errors).toEqual({ "options.view": [FINANCE_ACCESS_MESSAGES.viewRefused] });
      }
      // the refused FINANCE was never stored
      const [row] = await server.db.select({ options: users.options }).from(users).where(eq(users.id, me!.id));
      expect(row!.options?.view, who).toBe("DESPATCHER");
    }
  });

  it("refuses staff giving a colleague without finance the FINANCE view, and allows it for one with finance", async () => {
    const [plain] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, EMAILS.despatcher));
    const [fin] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, EMAILS.finance));
    expect((await c.admin.json(`/api/update_user_options/${plain!.id}`, { method: "PUT", json: { options: { view: "FINANCE" } } })).status).toBe(403);
    expect((await c.admin.json(`/api/update_user_options/${fin!.id}`, { method: "PUT", json: { options: { view: "FINANCE" } } })).status).toBe(200);
    // the home form's fallback takes the same rule, and the chooser is not offered without finance
    const home = await c.despatcher.request("/home", { form: { intent: "set_view", view: "FINANCE" }, headers: { Accept: "text/html" } });
    expect(home.status).toBe(403);
    const [row] = await server.db.select({ options: users.options }).from(users).where(eq(users.id, plain!.id));
    expect(row!.options?.view).not.toBe("FINANCE");
    expect(await (await c.despatcher.request("/home", { headers: { Accept: "text/html" } })).text()).not.toContain("Working view");
    expect(await (await c.finance.request("/home", { headers: { Accept: "text/html" } })).text()).toContain("Working view");
  });

  it("with FINANCE stored for everyone (as if set in the database), every finance read checks the permission, not the view", async () => {
    await server.db.update(users).set({ options: { view: "FINANCE" } }).where(inArray(users.email, Object.values(EMAILS)));
    for (const who of Object.keys(EMAILS) as Who[]) {
      const finance = FINANCE.includes(who);
      for (const r of FINANCE_READS) {
        const path = r.path();
        const res = await read(who, path, r.init);
        const at = `${who} ${path}`;
        if (finance) {
          // 404 (or back to the list): the other customer's finance user does not see ACME's reconciliation at all
          if (res.status === 302) expect(res.location, at).toMatch(/^\/reconciliations/);
          else expect([200, 404, 422], at).toContain(res.status);
        } else if (path.startsWith("/api/")) {
          expect(res.status, at).toBe(403);
          expect(JSON.parse(res.text).errors, at).toBeDefined();
        } else {
          // a finance page sends a user without finance home
          expect([res.status, res.location], at).toEqual([302, "/"]);
        }
        if (!finance) for (const secret of [RATED_BUY, INVOICED, MARGIN, "SHA2", "rated_buy"]) expect(res.text, at).not.toContain(secret);
      }
      // the landing page follows the permission too: no finance, no finance landing (and no loop)
      const landing = await read(who, "/");
      expect(landing.location, who).toBe(finance ? "/invoices_payable" : null);
    }
    // the stored preference itself is left as it is: finance given later makes it count
    await server.db.update(users).set({ canReconcile: true }).where(eq(users.email, EMAILS.despatcher));
    expect((await read("despatcher", "/api/reconciliations")).status).toBe(200);
    expect((await read("despatcher", "/")).location).toBe("/invoices_payable");
    await server.db.update(users).set({ canReconcile: false }).where(eq(users.email, EMAILS.despatcher));
    expect((await read("despatcher", "/api/reconciliations")).status).toBe(403);
  }, 240_000); // ten users by two dozen reads: minutes on PGlite under load
});

/** What a customer's own lines of the shared invoice give: every field they can read is checked against it. */
async function ownView(customerId: number) {
  const all = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, ids.shared));
  const own = all.filter((d) => d.customerId === customerId).sort((a, b) => a.lineNumber - b.lineNumber || a.id - b.id);
  const allocated = own.filter((d) => ["allocated", "exported"].includes(d.state)).length;
  const cents = own.reduce((s, d) => s + Math.round(Number(d.totalCost) * 100), 0);
  return {
    own,
    invoice: {
      total: cents / 100,
      total_cost: cents / 100,
      invoice_details_count: own.length,
      invoice_details_allocated_count: allocated,
      invoice_details_unallocated_count: own.filter((d) => ["unallocated", "allocation_failure"].includes(d.state)).length,
      state: own.every((d) => d.state === "exported") ? "exported" : allocated === own.length ? "allocated" : "unallocated",
      original_file_name: null,
    },
  };
}

describe("a shared carrier invoice, as each customer's finance user reads it", () => {
  const readers = [
    { who: "finance" as const, customer: () => ids.acme, other: () => "Testing Pty Ltd" },
    { who: "testFinance" as const, customer: () => ids.testco, other: () => "Acme Distribution" },
  ];

  it.each(readers)("$who: the invoice's total, counts and state come from their own lines, on every call that shows them", async ({ who, customer }) => {
    const { invoice } = await ownView(customer());
    const one = await c[who].json<Json>(`/api/invoices/${ids.shared}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject(invoice);
    const listed = (await c[who].json<Json>("/api/invoices?state=all")).body.invoices.find((i: Json) => i.id === ids.shared);
    expect(listed).toMatchObject(invoice);
    const grouped = (await c[who].json<Json>("/api/invoices/groups?state=all")).body.groups.flatMap((g: Json) => g.invoices).find((i: Json) => i.id === ids.shared);
    expect(grouped).toMatchObject(invoice);
    const found = (await c[who].json<Json>("/api/invoices/search?query=SHARED-1")).body.invoices.find((i: Json) => i.id === ids.shared);
    expect(found.state).toBe(invoice.state);
    // the state filters and counters go by the same state
    const byState = await c[who].json<Json>(`/api/invoices?state=${invoice.state === "exported" ? "exported" : invoice.state}`);
    expect(byState.body.invoices.map((i: Json) => i.id)).toContain(ids.shared);
    const page = (await (await c[who].request(`/invoice/${ids.shared}`, { headers: { Accept: "text/html" } })).text()).replaceAll("<!-- -->", "");
    expect(page).not.toContain(STATED_TOTAL);
    expect(page).not.toContain("9,876.50");
    expect(page).toContain(`$${invoice.total.toFixed(2)}`);
  });

  it("the demo finance user (all their lines allocated) does not see the shared invoice as Unallocated", async () => {
    const one = await c.finance.json<Json>(`/api/invoices/${ids.shared}`);
    expect(one.body.state).toBe("allocated");
    expect((await c.finance.json<Json>("/api/invoices?state=unallocated")).body.invoices.map((i: Json) => i.id)).not.toContain(ids.shared);
    expect((await c.finance.json<Json>("/api/invoices")).body.meta.counts).toMatchObject({ unallocated: 0 });
    // staff still read the invoice whole
    expect((await c.admin.json<Json>(`/api/invoices/${ids.shared}`)).body).toMatchObject({ state: "unallocated", total: Number(STATED_TOTAL), invoice_details_count: 6, original_file_name: "carrier-file.csv" });
  });

  it.each(readers)("$who: lines are numbered within their own lines, with no gaps for hidden ones", async ({ who, customer }) => {
    const { own } = await ownView(customer());
    const lines = await c[who].json<Json>(`/api/invoice_details?invoice_id=${ids.shared}`);
    expect(lines.body.invoice_details.map((d: Json) => [d.consignment_number, d.line_number])).toEqual(own.map((d, i) => [d.consignmentNumber, i + 1]));
    // the same numbers whatever the order, state filter or page
    const desc = await c[who].json<Json>(`/api/invoice_details?invoice_id=${ids.shared}&order_by=line_number&order_direction=desc`);
    expect(desc.body.invoice_details.map((d: Json) => d.line_number)).toEqual(own.map((_, i) => i + 1).reverse());
    const allocated = await c[who].json<Json>(`/api/invoice_details?invoice_id=${ids.shared}&state=allocated`);
    for (const d of allocated.body.invoice_details) expect(d.line_number).toBe(own.findIndex((o) => o.id === d.id) + 1);
    for (const [i, d] of own.entries()) {
      const modal = await c[who].json<Json>(`/api/invoices/${ids.shared}/invoice_details/${d.id}`);
      expect(modal.body.line_number).toBe(i + 1);
      expect(modal.body.position).toMatchObject({ index: i + 1, total: own.length });
    }
  });

  it.each(readers)("$who: the invoice page and its line modal name no other customer, and offer no original file", async ({ who, customer, other }) => {
    const { own } = await ownView(customer());
    const page = await (await c[who].request(`/invoice/${ids.shared}?detail=${own[0]!.id}`, { headers: { Accept: "text/html" } })).text();
    expect(page).toContain(own[0]!.consignmentNumber!);
    expect(page).not.toContain(other());
    expect(page).not.toContain("Old Traders");
    expect(page).not.toContain(`/api/invoices/${ids.shared}/original_file`);
    expect(page).not.toContain("Original file");
    // the row cells show the scoped numbers
    const cells = [...page.matchAll(/<tr data-testid="line-row"><td[^>]*>(\d+)<\/td>/g)].map((m) => Number(m[1]));
    expect(cells).toEqual(own.map((_, i) => i + 1));
    // staff see every customer and the file
    const staff = await (await c.admin.request(`/invoice/${ids.shared}?detail=${own[0]!.id}`, { headers: { Accept: "text/html" } })).text();
    expect(staff).toContain(other());
    expect(staff).toContain(`/api/invoices/${ids.shared}/original_file`);
  });

  it("the carrier's original file is for staff only", async () => {
    for (const who of ["finance", "testFinance"] as const) {
      const res = await c[who].json<Json>(`/api/invoices/${ids.shared}/original_file`);
      expect(res.status, who).toBe(403);
      expect(res.body.errors.base).toEqual([FINANCE_ACCESS_MESSAGES.carrierFileStaffOnly]);
      // an invoice that does not exist answers alike: nothing learnt
      expect((await c[who].request("/api/invoices/99999999/original_file")).status).toBe(403);
    }
    for (const who of ["admin", "customerService"] as const) {
      const res = await c[who].request(`/api/invoices/${ids.shared}/original_file`);
      expect(res.status, who).toBe(200);
      expect(await res.text()).toContain(OTHER_RECEIVER);
    }
  });

  it("a customer filter on the payable list cannot tell which invoices hold another customer's lines", async () => {
    const mine = await c.finance.json<Json>(`/api/invoices?state=all&customer_id=${ids.acme}`);
    expect(mine.body.invoices.map((i: Json) => i.id)).toContain(ids.shared);
    const theirs = await c.finance.json<Json>(`/api/invoices?state=all&customer_id=${ids.testco}`);
    expect(theirs.body.invoices.map((i: Json) => i.id)).not.toContain(ids.shared);
    const staff = await c.admin.json<Json>(`/api/invoices?state=all&customer_id=${ids.testco}`);
    expect(staff.body.invoices.map((i: Json) => i.id), JSON.stringify(staff.body)).toContain(ids.shared);
  });

  it("the allocation-rule test names no other customer or site", async () => {
    const rule = async (body: Json) => {
      const res = await c.admin.json<Json>("/api/allocation_rules", { json: { carrier_code: "auspost", type: "Mapping", ...body } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.allocation_rule.id as number;
    };
    const toCustomer = await rule({ allocation_model: "Customer", options: { from_matcher: { field: "payer", text: "Shared Payer" }, to_id: ids.testco } });
    const toSite = await rule({ allocation_model: "Site", options: { from_matcher: { field: "payer", text: "Shared Payer" }, to_id: ids.testSite } });
    const secrets = ["Testing Pty Ltd", "TESTCO", "Test Site", "TST"];
    for (const body of [{ invoice_detail_id: ids.acmeLine2 }, { invoice_detail_id: ids.acmeLine2, rule_id: toCustomer }, { invoice_detail_id: ids.acmeLine2, rule_id: toSite }]) {
      const res = await c.finance.json<Json>("/api/allocation_rules/test", { json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.base).toEqual([FINANCE_ACCESS_MESSAGES.otherCustomer]);
      for (const s of secrets) expect(JSON.stringify(res.body)).not.toContain(s);
      // staff are told where the line would go
      const staff = await c.admin.json<Json>("/api/allocation_rules/test", { json: body });
      expect(staff.status).toBe(200);
      expect(staff.body.message).toMatch(/Testing Pty Ltd|Test Site/);
    }
    // a rule that gives the line to the reader's own customer is named to them
    const toOwn = await rule({ allocation_model: "Customer", options: { from_matcher: { field: "payer", text: "Shared Payer" }, to_id: ids.acme } });
    const own = await c.finance.json<Json>("/api/allocation_rules/test", { json: { invoice_detail_id: ids.acmeLine2, rule_id: toOwn } });
    expect(own.status).toBe(200);
    expect(own.body.message).toContain("Acme Distribution");
    // the rules list, the mapping export and the rules screen hold every customer's mappings: a
    // customer's finance user sees the carrier-wide rules that name only them
    const listed = await c.finance.json<Json>("/api/allocation_rules?carrier_code=auspost");
    expect(listed.body.allocation_rules.map((r: Json) => r.id)).toEqual([toOwn]);
    expect((await c.admin.json<Json>("/api/allocation_rules?carrier_code=auspost")).body.allocation_rules.map((r: Json) => r.id)).toEqual([toCustomer, toSite, toOwn]);
    const exported = await (await c.finance.request("/api/allocation_rules/sapphire_mapping_export?carrier_code=auspost")).text();
    const screen = await (await c.finance.request("/allocation_rules?carrier=auspost", { headers: { Accept: "text/html" } })).text();
    // (a page's asset names may hold any three capitals: no "TST" there)
    for (const text of [JSON.stringify(listed.body), exported, screen]) for (const s of ["Testing Pty Ltd", "TESTCO", "Test Site"]) expect(text).not.toContain(s);
    expect(await (await c.admin.request("/allocation_rules?carrier=auspost", { headers: { Accept: "text/html" } })).text()).toContain("Testing Pty Ltd");
  });
});

describe("a finance user's POST to /invoices/allocate (and the area's other form routes without a page)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers a plain 403 with the reason, not 'Unexpected Server Error', and logs no server error", async () => {
    const logged = vi.spyOn(console, "error");
    const calls: Array<[string, Parameters<Client["request"]>[1]]> = [
      ["/invoices/allocate", { form: { invoice_ids: String(ids.shared), redirectTo: "/invoices_payable" } }],
      ["/invoices_payable/import", { form: { config_id: "1" } }],
      [`/invoices_payable/download/${randomUUID()}.csv`, {}],
    ];
    for (const [path, init] of calls) {
      // as a browser's form post, and as a script
      const asBrowser: Record<string, string> = { Accept: "text/html", "X-Requested-With": "" };
      for (const headers of [asBrowser, { Accept: "application/json" }]) {
        const res = await c.finance.request(path, { ...init, headers });
        const text = await res.text();
        expect(res.status, path).toBe(403);
        expect(text, path).not.toContain("Unexpected Server Error");
        expect(text, path).toMatch(/You are not authorised to do that\.|You may not import invoices\./);
        if (headers.Accept === "application/json") expect(JSON.parse(text).errors.base, path).toHaveLength(1);
      }
    }
    expect(logged).not.toHaveBeenCalled();
    // nothing was queued or changed
    const [inv] = await server.db.select({ state: invoices.state }).from(invoices).where(eq(invoices.id, ids.shared));
    expect(inv!.state).toBe("unallocated");
  });
});
