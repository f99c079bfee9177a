/**
 * Allocation rules and allocation (issue 18 items 5 and 6): rule CRUD with validation, loops and
 * soft delete, roles and scoping, the test call's message, the mapping CSV both ways (bad files
 * too), and the allocation job: by consignment number, by rules, the failure reason, the
 * customer's invoice_allocate_by, lines allocated by hand kept on a re-run, and invoice state.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allocationRules, consignments, customers, invoiceDetails, invoices, users } from "../../db/schema";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let staff: Client;
let despatcher: Client;
let tester: Client;
let fx: { carrierId: number; carrierCode: string; accountId: number; siteId: number; siteCode: string; customerId: number; customerCode: string; serviceId: number; serviceCode: string; otherCustomerId: number; otherCustomerCode: string };

const q = async <T>(query: ReturnType<typeof sql>) => {
  const raw = (await server.db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(raw) ? raw : (raw.rows ?? []);
};

async function invoiceWith(number: string, lines: Array<Partial<typeof invoiceDetails.$inferInsert>>) {
  const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: number, carrierId: fx.carrierId, total: "100" }).returning();
  const rows = await server.db
    .insert(invoiceDetails)
    .values(lines.map((l, i) => ({ invoiceId: inv!.id, lineNumber: i + 1, carrierId: fx.carrierId, totalCost: "10", ...l })))
    .returning();
  return { invoice: inv!, lines: rows };
}

const rule = (over: Json = {}) => ({
  carrier_code: fx.carrierCode,
  allocation_model: "Customer",
  type: "Mapping",
  options: { from_matcher: { field: "payer", text: "Acme Payer" }, to_id: fx.otherCustomerId },
  ...over,
});

async function allocate(body: Json) {
  const res = await admin.json<Json>("/api/invoices/allocate", { method: "PUT", json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const job = await support.workJob(world, res.body.job_id, admin);
  expect(job.status, JSON.stringify(job)).toBe("complete");
  return job;
}
const line = async (id: number) => (await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.id, id)))[0]!;

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  admin = world.clients.admin;
  staff = world.clients.customerService;
  despatcher = world.clients.despatcher;
  tester = world.clients.tester;
  const [a] = await q<Json>(sql`
    select a.id as account_id, a.carrier_id, c.code as carrier_code, a.site_id, s.code as site_code, s.customer_id, cu.code as customer_code, sv.id as service_id, sv.code as service_code
    from carrier_accounts a join carriers c on c.id = a.carrier_id join sites s on s.id = a.site_id join customers cu on cu.id = s.customer_id
    join services sv on sv.carrier_id = a.carrier_id order by a.id, sv.id limit 1`);
  const [other] = await q<Json>(sql`select id, code from customers where id <> ${a!.customer_id} order by id limit 1`);
  fx = {
    carrierId: a!.carrier_id,
    carrierCode: a!.carrier_code,
    accountId: a!.account_id,
    siteId: a!.site_id,
    siteCode: a!.site_code,
    customerId: a!.customer_id,
    customerCode: a!.customer_code,
    serviceId: a!.service_id,
    serviceCode: a!.service_code,
    otherCustomerId: other!.id,
    otherCustomerCode: other!.code,
  };
  // the tester is a finance user of their own customer (can_reconcile), read only
  await server.db.update(users).set({ canReconcile: true }).where(eq(users.email, "tester@example.com"));
  await tester.signIn("tester@example.com");
}, 300_000);
afterAll(() => server.close());

describe("allocation rules", () => {
  it("adds, lists, changes and soft deletes a rule with the spec's messages", async () => {
    const created = await admin.json<Json>("/api/allocation_rules", { json: rule() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.message).toBe("New allocation rule saved successfully");
    const id = created.body.allocation_rule.id;
    expect(created.body.allocation_rule).toMatchObject({ carrier_code: fx.carrierCode, allocation_model: "Customer", type: "Mapping", to_code: fx.otherCustomerCode, group: id });

    const list = await staff.json<Json>(`/api/allocation_rules?carrier_code=${fx.carrierCode}`);
    expect(list.status).toBe(200);
    expect(list.body.allocation_rules.map((r: Json) => r.id)).toContain(id);

    const changed = await admin.json<Json>(`/api/allocation_rules/${id}`, { method: "PUT", json: rule({ options: { from_matcher: { field: "payer", text: "Acme Two" }, to_id: fx.otherCustomerId } }) });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.message).toBe("Allocation rules saved successfully");

    expect((await admin.json<Json>(`/api/allocation_rules/${id}`, { method: "DELETE" })).status).toBe(200);
    const [row] = await server.db.select().from(allocationRules).where(eq(allocationRules.id, id));
    expect(row!.deleted).toBe(true);
    const after = await admin.json<Json>(`/api/allocation_rules?carrier_code=${fx.carrierCode}`);
    expect(after.body.allocation_rules.map((r: Json) => r.id)).not.toContain(id);
    expect((await admin.json<Json>(`/api/allocation_rules/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses bad input per field: model, field, text, target, lookup field, unknown carrier", async () => {
    const bad = async (body: Json) => (await admin.json<Json>("/api/allocation_rules", { json: body })).body.errors;
    expect((await bad(rule({ allocation_model: "Nope" })))["allocation_model"]).toEqual(["Choose Customer, Site or CarrierService"]);
    expect((await bad(rule({ options: { from_matcher: { field: "colour", text: "x" }, to_id: 1 } })))["options.from_matcher.field"]).toEqual(["Choose a field of the invoice line"]);
    expect((await bad(rule({ options: { from_matcher: { field: "payer", text: " " }, to_id: 1 } })))["options.from_matcher.text"]).toEqual(["Text is required"]);
    expect((await bad(rule({ options: { from_matcher: { field: "payer", text: "x" }, to_id: 99999999 } })))["options.to_id"]).toEqual(["No Customer has id 99999999"]);
    expect((await bad(rule({ type: "Lookup", options: { from_matcher: { field: "payer" }, to_matcher: { model: "Account", field: "name" } } })))["options.to_matcher.field"]).toEqual(["Choose a field of that model"]);
    expect((await bad(rule({ carrier_code: "NOPE" })))["carrier_code"]).toEqual(["No carrier has that code"]);
    const status = (await admin.json<Json>("/api/allocation_rules", { json: [1, 2] })).status;
    expect([400, 422]).toContain(status);
  });

  it("chains rules by next_rule and refuses a save that makes a loop", async () => {
    const a = (await admin.json<Json>("/api/allocation_rules", { json: rule({ options: { from_matcher: { field: "payer", text: "Loop A" }, to_id: fx.otherCustomerId } }) })).body.allocation_rule;
    const b = (await admin.json<Json>("/api/allocation_rules", { json: rule({ next_rule: a.id, options: { from_matcher: { field: "payer", text: "Loop B" }, to_id: fx.otherCustomerId } }) })).body.allocation_rule;
    expect(b.next_rule).toBe(a.id);
    const loop = await admin.json<Json>(`/api/allocation_rules/${a.id}`, { method: "PUT", json: rule({ next_rule: b.id, options: { from_matcher: { field: "payer", text: "Loop A" }, to_id: fx.otherCustomerId } }) });
    expect(loop.status).toBe(422);
    expect(loop.body.errors.next_rule).toEqual(["This next rule would make the chain loop back to this rule."]);
    const wrongModel = await admin.json<Json>("/api/allocation_rules", { json: rule({ allocation_model: "CarrierService", next_rule: a.id, options: { from_matcher: { field: "payer", text: "x" }, to_id: fx.serviceId } }) });
    expect(wrongModel.body.errors.next_rule).toEqual(["The next rule must allocate the same model"]);
    // deleting the head's next keeps the chain going
    await admin.json(`/api/allocation_rules/${a.id}`, { method: "DELETE" });
    await admin.json(`/api/allocation_rules/${b.id}`, { method: "DELETE" });
  });

  it("lets finance users read and test but only invoice admins write; others get 403, no session 401", async () => {
    expect((await staff.json("/api/allocation_rules", { json: rule() })).status).toBe(403);
    expect((await tester.json("/api/allocation_rules", { json: rule() })).status).toBe(403);
    expect((await tester.json(`/api/allocation_rules?carrier_code=${fx.carrierCode}`)).status).toBe(200);
    expect((await despatcher.json(`/api/allocation_rules?carrier_code=${fx.carrierCode}`)).status).toBe(403);
    expect((await despatcher.json("/api/allocation_rules/sapphire_mapping_export")).status).toBe(403);
    expect((await tester.json("/api/invoices/allocate", { method: "PUT", json: { invoice_ids: [1] } })).status).toBe(403);
    const anonymous = await fetch(`${server.url}/api/allocation_rules`, { headers: { Accept: "application/json" } });
    expect(anonymous.status).toBe(401);
    expect((await despatcher.request("/allocation_rules")).status).toBe(302);
  });

  it("tests the rules against a line: 'Allocation rule allocated: {allocation}', or the first failing rule's reason", async () => {
    const r = (await admin.json<Json>("/api/allocation_rules", { json: rule({ options: { from_matcher: { field: "payer", text: "Tested Payer" }, to_id: fx.otherCustomerId } }) })).body.allocation_rule;
    const { lines } = await invoiceWith("T-TEST-1", [{ consignmentNumber: "NOPE-T1", payer: "Tested Payer" }, { consignmentNumber: "NOPE-T2", payer: "Someone" }]);
    const ok = await staff.json<Json>("/api/allocation_rules/test", { json: { invoice_detail_id: lines[0]!.id, rule_id: r.id } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.message).toMatch(/^Allocation rule allocated: Customer .+ \(/);
    expect(ok.body.message).toBe(`Allocation rule allocated: ${ok.body.allocation}`);
    const failed = await staff.json<Json>("/api/allocation_rules/test", { json: { invoice_detail_id: lines[1]!.id, rule_id: r.id } });
    expect(failed.status).toBe(422);
    expect(Object.values(failed.body.errors as Record<string, string[]>)[0]![0]).toBe(`Rule ${r.id}: payer is not 'Tested Payer'`);
    // nothing was written
    expect((await line(lines[0]!.id)).state).toBe("unallocated");
    // a customer's finance user cannot test another customer's line
    const scoped = await tester.json<Json>("/api/allocation_rules/test", { json: { invoice_detail_id: lines[0]!.id } });
    expect(scoped.status).toBe(422);
    expect(scoped.body.errors.invoice_detail_id).toEqual(["No invoice line has that id"]);
    expect((await staff.json<Json>("/api/allocation_rules/test", { json: {} })).body.errors.invoice_detail_id).toEqual(["Invoice line id is required"]);
    await admin.json(`/api/allocation_rules/${r.id}`, { method: "DELETE" });
  });
});

describe("mapping csv", () => {
  const upload = (client: Client, text: string, name = "mapping.csv") => {
    const form = new FormData();
    form.set("file", new File([text], name, { type: "text/csv" }));
    return fetch(`${server.url}/api/allocation_rules/sapphire_mapping_import`, { method: "POST", body: form, headers: { cookie: client.cookie, Accept: "application/json", "X-Requested-With": "XMLHttpRequest" } });
  };
  const header = "carrier_code,customer_code,allocation_model,field,text,to_code";

  it("imports mapping rows as one chained group, re-imports without duplicates, and exports them with formulas neutralised", async () => {
    const text = `${header}\n${fx.carrierCode},,Customer,reference,=HYPERLINK(1),${fx.customerCode}\n${fx.carrierCode},${fx.customerCode},Site,reference,MapSite,${fx.siteCode}\n${fx.carrierCode},,Customer,payer,Map Payer 2,${fx.customerCode}\n`;
    const res = await upload(admin, text);
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ message: "Imported mapping", created: 3, updated: 0 });
    const again = (await (await upload(admin, text)).json()) as Json;
    expect(again).toMatchObject({ created: 0, updated: 3 });
    const exported = await admin.request(`/api/allocation_rules/sapphire_mapping_export?carrier_code=${fx.carrierCode}`);
    expect(exported.headers.get("content-type")).toMatch(/text\/csv/);
    const csv = await exported.text();
    expect(csv.split(/\r?\n/)[0]).toBe(header);
    expect(csv).toContain(`'=HYPERLINK(1)`);
    expect(csv).toContain(`${fx.carrierCode},${fx.customerCode},Site,reference,MapSite,${fx.siteCode}`);
    const rules = (await admin.json<Json>(`/api/allocation_rules?carrier_code=${fx.carrierCode}`)).body.allocation_rules.filter((r: Json) => r.type === "Mapping" && r.allocation_model === "Customer" && /HYPERLINK|Map Payer 2/.test(r.options.from_matcher.text));
    expect(rules).toHaveLength(2);
    expect(rules[0].next_rule).toBe(rules[1].id);
    for (const r of (await admin.json<Json>(`/api/allocation_rules?carrier_code=${fx.carrierCode}`)).body.allocation_rules) await admin.json(`/api/allocation_rules/${r.id}`, { method: "DELETE" });
  });

  it("refuses a bad file whole: unknown codes per line, missing columns, not csv, no file, and non-admins", async () => {
    const before = await server.db.select({ n: sql<number>`count(*)::int` }).from(allocationRules);
    const bad = await upload(admin, `${header}\n${fx.carrierCode},,Customer,payer,ok,${fx.customerCode}\nNOPE,,Customer,payer,x,${fx.customerCode}\n${fx.carrierCode},,Site,payer,x,${fx.siteCode}\n`);
    expect(bad.status).toBe(422);
    const errors = ((await bad.json()) as Json).errors.file as string[];
    expect(errors).toEqual(["Line 3: no carrier has code 'NOPE'", "Line 4: a Site mapping needs the customer_code of the site"]);
    expect(await server.db.select({ n: sql<number>`count(*)::int` }).from(allocationRules)).toEqual(before);
    expect(((await (await upload(admin, "carrier_code,text\nX,y\n")).json()) as Json).errors.file[0]).toMatch(/^The file needs the columns/);
    expect(((await (await upload(admin, header, "mapping.xlsx")).json()) as Json).errors.file).toEqual(["Only csv files can be imported."]);
    const none = new FormData();
    const empty = await fetch(`${server.url}/api/allocation_rules/sapphire_mapping_import`, { method: "POST", body: none, headers: { cookie: admin.cookie, Accept: "application/json" } });
    expect(((await empty.json()) as Json).errors.file).toEqual(["Choose a file to import."]);
    expect((await upload(staff, `${header}\n`)).status).toBe(403);
  });
});

describe("allocation job", () => {
  it("matches lines by consignment number, then by rules, reports failures, keeps manual lines and follows with the invoice state", async () => {
    const [con] = await server.db
      .insert(consignments)
      .values({ customerId: fx.customerId, siteId: fx.siteId, consignmentNumber: "ALLOC-CN-1", carrierAccountId: fx.accountId, serviceId: fx.serviceId, state: "despatched" })
      .returning();
    const payerRule = (await admin.json<Json>("/api/allocation_rules", { json: rule({ options: { from_matcher: { field: "payer", text: "Rule Payer" }, to_id: fx.otherCustomerId } }) })).body.allocation_rule;
    const { invoice, lines } = await invoiceWith("ALLOC-INV-1", [
      { consignmentNumber: "ALLOC-CN-1" },
      { consignmentNumber: "NOT-OURS-1", payer: "Rule Payer" },
      { consignmentNumber: "NOT-OURS-2", payer: "Stranger" },
      { consignmentNumber: "ALLOC-CN-1", state: "allocated", allocatedBy: "manual", customerId: fx.otherCustomerId },
    ]);
    const job = await allocate({ invoice_ids: [invoice.id] });
    expect(job.message).toBe("Allocated 2 of 3 lines");
    expect(await line(lines[0]!.id)).toMatchObject({ state: "allocated", allocatedBy: "consignment", consignmentId: con!.id, customerId: fx.customerId, siteId: fx.siteId, serviceId: fx.serviceId });
    expect(await line(lines[1]!.id)).toMatchObject({ state: "allocated", allocatedBy: "rule", customerId: fx.otherCustomerId, consignmentId: null });
    const failed = await line(lines[2]!.id);
    expect(failed.state).toBe("allocation_failure");
    expect(failed.allocationError).toBe(`No consignment NOT-OURS-2 for this carrier; Rule ${payerRule.id}: payer is not 'Rule Payer'`);
    expect(await line(lines[3]!.id)).toMatchObject({ state: "allocated", allocatedBy: "manual", customerId: fx.otherCustomerId, consignmentId: null });
    expect((await server.db.select().from(invoices).where(eq(invoices.id, invoice.id)))[0]!.state).toBe("unallocated");

    // a rule for the stranger, and the re-run allocates the rest; the manual line stays as it was
    await admin.json("/api/allocation_rules", { json: rule({ options: { from_matcher: { field: "payer", text: "Stranger" }, to_id: fx.customerId } }) });
    const rerun = await allocate({ invoice_ids: [invoice.id] });
    expect(rerun.message).toBe("Allocated 3 of 3 lines");
    expect(await line(lines[3]!.id)).toMatchObject({ allocatedBy: "manual", customerId: fx.otherCustomerId, consignmentId: null });
    expect((await server.db.select().from(invoices).where(eq(invoices.id, invoice.id)))[0]!.state).toBe("allocated");
  });

  it("respects invoice_allocate_by: a customer invoiced by site needs the line's site, by region its receiver region", async () => {
    const [cust] = await server.db.select().from(customers).where(eq(customers.id, fx.otherCustomerId));
    await server.db.update(customers).set({ options: { ...cust!.options, invoice_allocate_by: "SITE" } }).where(eq(customers.id, fx.otherCustomerId));
    try {
      await admin.json("/api/allocation_rules", { json: rule({ options: { from_matcher: { field: "payer", text: "By Site" }, to_id: fx.otherCustomerId } }) });
      const { lines } = await invoiceWith("ALLOC-INV-SITE", [{ consignmentNumber: "NOT-OURS-S", payer: "By Site" }]);
      await allocate({ invoice_detail_ids: [lines[0]!.id] });
      expect(await line(lines[0]!.id)).toMatchObject({ state: "allocation_failure", allocationError: `No site: ${cust!.name} is invoiced by site` });
      await server.db.update(customers).set({ options: { ...cust!.options, invoice_allocate_by: "REGION" } }).where(eq(customers.id, fx.otherCustomerId));
      await allocate({ invoice_detail_ids: [lines[0]!.id] });
      expect((await line(lines[0]!.id)).allocationError).toBe(`No receiver region: ${cust!.name} is invoiced by receiver region`);
      await server.db.update(invoiceDetails).set({ receiverRegion: "VIC" }).where(eq(invoiceDetails.id, lines[0]!.id));
      await allocate({ invoice_detail_ids: [lines[0]!.id] });
      expect(await line(lines[0]!.id)).toMatchObject({ state: "allocated", allocationError: null });
    } finally {
      await server.db.update(customers).set({ options: cust!.options }).where(eq(customers.id, fx.otherCustomerId));
    }
  });

  it("refuses an empty or unknown selection, and the form route redirects back with the job", async () => {
    expect((await admin.json<Json>("/api/invoices/allocate", { method: "PUT", json: {} })).body.errors.invoice_ids).toEqual(["Select at least one invoice"]);
    expect((await admin.json<Json>("/api/invoices/allocate", { method: "PUT", json: { invoice_ids: [99999999] } })).body.errors.invoice_ids).toEqual(["No payable invoice has one of those ids"]);
    expect((await admin.json<Json>("/api/invoices/allocate", { method: "PUT", json: { invoice_ids: ["x"] } })).status).toBe(422);
    const { invoice } = await invoiceWith("ALLOC-INV-FORM", [{ consignmentNumber: "ALLOC-CN-1" }]);
    const res = await admin.request("/invoices/allocate", { form: { invoice_ids: String(invoice.id), redirectTo: `/invoice/${invoice.id}?x=1` } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(new RegExp(`^/invoice/${invoice.id}\\?x=1&allocation_job=[0-9a-f-]{36}$`));
    const offsite = await admin.request("/invoices/allocate", { form: { invoice_ids: String(invoice.id), redirectTo: "//evil.example/x" } });
    expect(offsite.headers.get("location")).toMatch(/^\/invoices_payable\?allocation_job=/);
    expect((await tester.request("/invoices/allocate", { form: { invoice_ids: String(invoice.id) } })).status).toBe(403);
  });
});

describe("the /allocation_rules screen without JavaScript", () => {
  it("adds a rule, shows the spec's message, tests its group and refuses a loop on the rule", async () => {
    const path = `/allocation_rules?carrier=${encodeURIComponent(fx.carrierCode)}`;
    const form = { intent: "save", rule_id: "", allocation_model: "Customer", type: "Mapping", customer_id: "", field: "payer", text: "Screen Payer", to_id: String(fx.customerId), to_matcher: "Customer.code", next_rule: "" };
    const saved = await admin.request(path, { form });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toMatch(/notice=created#rule-\d+$/);
    const id = Number(/#rule-(\d+)$/.exec(saved.headers.get("location")!)![1]);
    const page = await admin.request(saved.headers.get("location")!.replace(/#.*/, ""));
    const html = await page.text();
    expect(html).toContain("New allocation rule saved successfully");
    expect(html).toContain(`Rule ${id}`);
    const { lines } = await invoiceWith("SCREEN-INV", [{ consignmentNumber: "SCREEN-1", payer: "Screen Payer" }]);
    const tested = await admin.request(path, { form: { intent: "test", rule_id: String(id), invoice_detail_id: String(lines[0]!.id) } });
    expect(await tested.text()).toContain("Allocation rule allocated: Customer");
    const second = Number(/#rule-(\d+)$/.exec((await admin.request(path, { form: { ...form, text: "Other", next_rule: String(id) } })).headers.get("location")!)![1]);
    const loop = await admin.request(path, { form: { ...form, rule_id: String(id), next_rule: String(second) } });
    expect(loop.status).toBe(422);
    expect(await loop.text()).toContain("This next rule would make the chain loop back to this rule.");
    // a finance user without invoice admin sees the rules but no editor
    const readOnly = await staff.request(path);
    expect(readOnly.status).toBe(200);
    expect(await readOnly.text()).not.toContain("Add rule");
    expect((await staff.request(path, { form })).status).toBe(403);
  });

  it("imports a mapping file from the screen: 'Imported mapping', or 'Importfailed' with the reasons", async () => {
    const path = `/allocation_rules?carrier=${encodeURIComponent(fx.carrierCode)}`;
    const post = (text: string, name = "m.csv") => {
      const form = new FormData();
      form.set("file", new File([text], name, { type: "text/csv" }));
      return fetch(server.url + path, { method: "POST", body: form, redirect: "manual", headers: { cookie: admin.cookie } });
    };
    const good = await post(`carrier_code,customer_code,allocation_model,field,text,to_code\n${fx.carrierCode},,Customer,reference,ScreenImport,${fx.customerCode}\n`);
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toMatch(/notice=imported$/);
    expect(await (await admin.request(good.headers.get("location")!)).text()).toContain("Imported mapping");
    const bad = await post("carrier_code,customer_code,allocation_model,field,text,to_code\nNOPE,,Customer,reference,x,y\n");
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toContain("Importfailed");
    expect(html).toContain("Line 2: no carrier has code &#x27;NOPE&#x27;");
    expect(await (await post("x", "m.txt")).text()).toContain("Importfailed");
  });
});
