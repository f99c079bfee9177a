/**
 * Issue 31 #4: every server-rendered form, posted without JavaScript with its required fields
 * empty, puts each message beside the control of that field (aria-invalid and aria-describedby
 * naming the message), and never says "correct the fields marked" with nothing marked. One
 * reusable checker (tests/support/form-check.ts) over a table of the app's forms.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoiceDetails, invoices } from "../../db/schema";
import { expectMarked, expectNoNestedForms, postFormBlank } from "../support/form-check";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

let world: DespatchWorld;
let ids: { customer: number; site: number; carrier: number; carrierCode: string };

const q = async <T>(query: ReturnType<typeof sql>) => {
  const raw = (await world.server.db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(raw) ? raw : (raw.rows ?? []);
};

beforeAll(async () => {
  world = await support.startDespatchWorld();
  const [row] = await q<Json>(sql`select s.customer_id, s.id as site_id, a.carrier_id, c.code as carrier_code from carrier_accounts a join sites s on s.id = a.site_id join carriers c on c.id = a.carrier_id order by a.id limit 1`);
  ids = { customer: row!.customer_id, site: row!.site_id, carrier: row!.carrier_id, carrierCode: row!.carrier_code };
  // the world seeds localities and rates: slow on a busy machine
}, 300_000);
afterAll(async () => {
  await world?.server.close();
});

type Case = {
  /** the page holding the form */
  path: () => string;
  /** the fields posted empty: the form's required fields */
  blank: string[];
  /** the fields that must then be marked, each with its message beside it (default: `blank`) */
  marked?: string[];
  /** the submit button naming the form, when the page has several */
  button?: string | RegExp;
  /** values set before posting (another required field filled, a choice made) */
  set?: Record<string, string>;
  who?: keyof DespatchWorld["clients"];
};

const FORMS: Record<string, Case> = {
  // the form of the issue: the server keyed the site name `name`, the field is `address.name`
  "site (new)": { path: () => `/customers/${ids.customer}/sites`, blank: ["code", "address.name"], button: "Save" },
  "site (existing)": { path: () => `/customers/${ids.customer}/sites/${ids.site}`, blank: ["address.name"], button: "Save" },
  "user (new)": { path: () => `/customers/${ids.customer}/users`, blank: ["email", "full_name"], button: "Save" },
  "customer (new)": { path: () => `/customers`, blank: ["code", "name"], button: "Save" },
  "carrier (new)": { path: () => `/carrier`, blank: ["code", "name"], button: "Save" },
  "service (new)": { path: () => `/carriers/${ids.carrier}/service`, blank: ["code", "name"], button: "Save" },
  "notice (new)": { path: () => `/notice`, blank: ["header", "content"], button: /Save|Publish/ },
  "store (new)": { path: () => `/customers/${ids.customer}/store`, blank: ["external_id"], button: "Save" },
  "declaration (new)": { path: () => `/customers/${ids.customer}/declarations`, blank: ["name"], button: /Save|Upload/ },
  "carrier account validation (new)": { path: () => `/carriers/${ids.carrier}/carrier-account-validation`, blank: ["field", "validation", "message"], marked: ["field"], button: "Save" },
  "enquiry (new)": { path: () => `/enquiries`, blank: ["subject"], button: /Send/, who: "despatcher" },
  "allocation rule (new)": { path: () => `/allocation_rules?carrier=${ids.carrierCode}`, blank: ["text"], button: "Add rule" },
  // no file chosen: the file is refused first
  "reconciliation report": { path: () => `/reconciliation`, blank: [], marked: ["file"], button: /Reconcile/ },
  "reset password": { path: () => `/forgot_password`, blank: ["email"], who: "tester" },
  "item type (new)": { path: () => `/customers/${ids.customer}/item_types`, blank: ["name"], button: "Save" },
  "carrier account (new)": { path: () => `/customers/${ids.customer}/sites/${ids.site}/accounts`, blank: ["account_number"], button: "Save" },
  "notification type (new)": { path: () => `/notification_types`, blank: ["name"], button: "Save" },
  "carrier invoice config (new)": { path: () => `/carrier_invoice_config`, blank: ["name"], button: "Save" },
  "change password": { path: () => `/users/edit`, blank: ["current_password", "password", "password_confirmation"], button: "Save password", who: "despatcher" },
};

describe("a form's messages sit beside its fields (issue 31 #4)", () => {
  for (const [name, c] of Object.entries(FORMS)) {
    it(name, async () => {
      const client = world.clients[c.who ?? "devs"];
      const posted = await postFormBlank(client, c.path(), c.blank, { button: c.button, set: c.set });
      // refused: a page without JavaScript gets the form again (4xx, or 200 from some actions), never a redirect
      expect(posted.status, `${name}: refused`).not.toBe(302);
      expectNoNestedForms(posted.html, name);
      const messages = expectMarked(posted.$, c.marked ?? c.blank, name);
      for (const m of Object.values(messages)) expect(m).not.toMatch(/^\s*$/);
    });
  }
});

describe("the invoice line modal's allocation test (issue 31 #2)", () => {
  it("is a form of its own, not nested in the line's form, and without JavaScript gets the test's answer", async () => {
    const admin = world.clients.admin;
    const [inv] = await world.server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: "FORMS-NEST-1", carrierId: ids.carrier, total: "10" }).returning();
    const [line] = await world.server.db.insert(invoiceDetails).values({ invoiceId: inv!.id, lineNumber: 1, carrierId: ids.carrier, totalCost: "10", payer: "Nobody Matches" }).returning();
    try {
      const path = `/invoice/${inv!.id}?detail=${line!.id}`;
      const page = await admin.request(path, { headers: { Accept: "text/html", "X-Requested-With": "" } });
      expect(page.status).toBe(200);
      const body = await page.text();
      expectNoNestedForms(body, path);
      // Test allocation rules posts its own form (by its form attribute): the test, not the line
      const tested = await postFormBlank(admin, path, [], { button: "Test allocation rules" });
      // the test's own answer (no rule of this carrier matches: 422), never the line form's 'Unknown action'
      expect([200, 422]).toContain(tested.status);
      expect(tested.html).not.toContain("Unknown action");
      expect(tested.$("h1").text()).toBe("Allocation rules");
      expect(tested.$('[role="alert"], [role="status"]').text()).toMatch(/\S/);
      // and the line's form was not what got posted: the line is as it was
      const [after] = await world.server.db.select().from(invoiceDetails).where(eq(invoiceDetails.id, line!.id));
      expect(after!.payer).toBe("Nobody Matches");
    } finally {
      await world.server.db.delete(invoiceDetails).where(eq(invoiceDetails.id, line!.id));
      await world.server.db.delete(invoices).where(eq(invoices.id, inv!.id));
    }
  });
});
