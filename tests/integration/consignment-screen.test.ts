import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, customers } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { Client, startTestServer, type TestServer } from "../support/server";

/** The consignment screen as the server renders it (no JavaScript): read-only states and the failed charge account. */
let server: TestServer;
let despatcher: Client;
let admin: Client;
let id: number;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
  admin = new Client(server.url);
  await admin.signIn("admin@example.com");
  const date = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
  const created = await despatcher.json<{ id: number }>("/api/consignments", {
    json: { site_code: "MEL", reference: "SCREEN", despatch_date: date, items: [{ quantity: 1, length: 10, width: 10, height: 10, weight_in_uom: "1" }] },
  });
  id = created.body.id;
}, 60_000);
afterAll(() => server.close());

const page = async (client: Client, path: string) => (await client.request(path)).text();

describe("the consignment screen, server-rendered", () => {
  it("an open consignment can be edited: Save and Save and Print, no despatched buttons", async () => {
    const html = await page(despatcher, `/consignment/${id}`);
    expect(html).toContain("Open consignment Pending");
    expect(html).not.toMatch(/<fieldset[^>]*disabled/);
    expect(html).toMatch(/<button[^>]*value="save"/);
    expect(html).not.toContain(">Tracking<");
  });

  it("a despatched consignment is read-only and offers Reprint, Print connote (for a carrier that prints them), Tracking and Enquiries", async () => {
    await server.db.update(consignments).set({ state: "despatched", consignmentNumber: "CN0001", printConnote: false }).where(eq(consignments.id, id));
    expect(await page(despatcher, `/consignment/${id}`)).not.toContain(">Print connote<");
    await server.db.update(consignments).set({ printConnote: true }).where(eq(consignments.id, id));
    const html = await page(despatcher, `/consignment/${id}`);
    expect(html).toContain("Despatched consignment CN0001");
    expect(html).toMatch(/<fieldset[^>]*disabled/);
    expect(html).not.toMatch(/<button[^>]*value="save"/);
    for (const label of ["Reprint", "Print connote", "Tracking", "Enquiries"]) expect(html).toContain(`>${label}<`);
  });

  it("a failed despatch: an admin saves its charge account by the form post; a despatcher cannot", async () => {
    await server.db.update(consignments).set({ state: "despatch_failure" }).where(eq(consignments.id, id));
    expect(await page(despatcher, `/consignment/${id}`)).not.toContain('name="failed_charge_account"');
    const html = await page(admin, `/consignment/${id}`);
    expect(html).toContain('name="failed_charge_account"');
    expect(html).toContain(">Re-Despatch<");
    const [row] = await server.db.select({ version: consignments.version }).from(consignments).where(eq(consignments.id, id));
    const res = await admin.request(`/consignment/${id}`, { form: { intent: "charge_account", version: String(row!.version), failed_charge_account: "FIXED-77" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/consignment/${id}?saved=complete`);
    const [after] = await server.db.select().from(consignments).where(eq(consignments.id, id));
    expect(after).toMatchObject({ chargeAccount: "FIXED-77", version: row!.version + 1 });
    // from the old version: the stale message, nothing changed
    const stale = await admin.request(`/consignment/${id}`, { form: { intent: "charge_account", version: String(row!.version), failed_charge_account: "OTHER" } });
    expect(await stale.text()).toContain("Unable to save. Someone else may have modified the consignment, please refresh.");
  });

  it("a consignment opened on another variant's screen is not found", async () => {
    const res = await despatcher.request(`/quote/${id}`);
    expect(res.status).toBe(404);
  });
});

describe("delivery options", () => {
  it("show only when enabled for the customer, and a form save keeps them", async () => {
    expect(await page(despatcher, "/")).not.toContain("Delivery options");
    const [acme] = await server.db.select().from(customers).where(eq(customers.code, "ACME"));
    await server.db.update(customers).set({ options: { ...acme!.options, delivery_options_enabled: true } }).where(eq(customers.id, acme!.id));
    try {
      expect(await page(despatcher, "/")).toContain("Delivery options");
      // an index route takes its posts at ?index, as its server-rendered form does
      const res = await despatcher.request("/?index", {
        form: { intent: "save", site_code: "MEL", reference: "WITH-OPTIONS", "options.delivery_options.authority_to_leave": "true", "options.delivery_options.tail_lift": "false", "items.0.quantity": "1" },
      });
      expect(res.status).toBe(302);
      const saved = Number(/\/consignment\/(\d+)/.exec(res.headers.get("location") ?? "")![1]);
      const [row] = await server.db.select().from(consignments).where(eq(consignments.id, saved));
      expect(row!.options).toMatchObject({ delivery_options: { authority_to_leave: true, tail_lift: false } });
    } finally {
      await server.db.update(customers).set({ options: acme!.options }).where(eq(customers.id, acme!.id));
    }
  });
});

describe("remembered preferences", () => {
  it("Save and Print's choice is stored as print_button; a bad one says it could not", async () => {
    const ok = await despatcher.request("/?index", { form: { print_button: "save_print_new" } });
    expect(await ok.text()).toContain("Printing preference saved.");
    expect(await page(despatcher, "/")).toContain("Save + Print + New");
    const bad = await despatcher.request("/?index", { form: { print_button: "print_everything" } });
    expect(await bad.text()).toContain("Could not update printing preference.");
  });

  it("the new-quote choice is stored as quote_button and opened; a bad one says it could not", async () => {
    const ok = await despatcher.request("/quotes", { form: { quote_button: "return_quote" } });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/return_quote");
    expect(await page(despatcher, "/quotes")).toMatch(/<a[^>]*href="\/return_quote"[^>]*>Return quote<\/a>/);
    const bad = await despatcher.request("/quotes", { form: { quote_button: "nonsense" } });
    expect(await bad.text()).toContain("Could not update quote preference");
  });
});
