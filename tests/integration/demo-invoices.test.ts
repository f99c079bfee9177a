/**
 * The demo's carrier invoices (issue 18 item 9): seeding an empty database the way the server
 * does gives three invoices in three layouts, imported with their files and partly allocated, with
 * the deliberate discrepancies on their lines, and seeding again adds nothing.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS, NEVER_ISSUED, seedDemoInvoices, TEMPLATE_NAMES } from "../../db/seed/invoices";
import { loadLocalities } from "../../db/seed/localities";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { plusDays } from "../../app/modules/calendar/dates";
import { todayIn } from "../../app/modules/calendar/site-time";
import { originalFile } from "../../app/modules/invoices/files.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
const db = () => test.database.db;

interface Line {
  invoice_number: string;
  invoice_state: string;
  invoice_date: string;
  original_file_path: string | null;
  config_name: string | null;
  consignment_number: string;
  state: string;
  allocated_by: string | null;
  allocation_error: string | null;
  consignment_id: number | null;
  customer_id: number | null;
  total_charge_weight: string | null;
  receiver_zone: string | null;
  costs: Record<string, number> | null;
  /** the consignment of that number, whether or not the line was allocated to it */
  rated: { charge_weight: number; to_zone: string; buy: { category: string; amount: number }[] } | null;
}

const lines = async () =>
  rowsOf<Line>(
    await db().execute(sql`
      select i.invoice_number, i.state as invoice_state, i.invoice_date::text, i.original_file_path, t.name as config_name,
        d.consignment_number, d.state, d.allocated_by, d.allocation_error, d.consignment_id, d.customer_id, d.total_charge_weight::text, d.receiver_zone,
        (select jsonb_object_agg(category, amount::float) from invoice_costs c where c.invoice_detail_id = d.id) as costs,
        (select c.rating_detail from consignments c where c.consignment_number = d.consignment_number) as rated
      from invoices i join invoice_details d on d.invoice_id = i.id left join carrier_invoice_configs t on t.id = i.config_id
      order by i.id, d.line_number`),
  );
const counts = async () =>
  rowsOf<Record<string, number>>(
    await db().execute(sql`select (select count(*)::int from invoices where accounting_type = 'payable') as invoices, (select count(*)::int from invoices where accounting_type = 'receivable') as customer_invoices,
      (select count(*)::int from invoice_details d join invoices i on i.id = d.invoice_id where i.accounting_type = 'payable') as lines, (select count(*)::int from invoice_costs) as costs,
      (select count(*)::int from consignments) as consignments, (select count(*)::int from carrier_invoice_configs) as templates, (select count(*)::int from allocation_rules) as rules`),
  )[0];
const of = (all: Line[], number: string) => all.filter((l) => l.invoice_number === number);
const rated = (l: Line, category: string) => l.rated!.buy.filter((b) => b.category === category).reduce((s, b) => s + b.amount, 0);

let all: Line[] = [];
beforeAll(async () => {
  test = await createTestDatabase();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
  all = await lines();
}, 600_000);
afterAll(() => test.drop());

describe("demo invoices", () => {
  it("imports three invoices through their templates, dated two to five days back, with their files", async () => {
    const byNumber = Object.entries(DEMO_INVOICE_NUMBERS).map(([code, number]) => ({ code, number, lines: of(all, number) }));
    expect(byNumber.map((b) => [b.number, b.lines.length])).toEqual([
      [DEMO_INVOICE_NUMBERS.NORTHLINE, 4],
      [DEMO_INVOICE_NUMBERS.auspost, 3],
      [DEMO_INVOICE_NUMBERS.SIMEX, 4],
    ]);
    const today = todayIn("Australia/Melbourne");
    for (const b of byNumber) {
      expect(b.lines[0]!.config_name).toBe(TEMPLATE_NAMES[b.code as keyof typeof TEMPLATE_NAMES]);
      expect(b.lines[0]!.invoice_date >= plusDays(today, -5) && b.lines[0]!.invoice_date <= plusDays(today, -2), b.lines[0]!.invoice_date).toBe(true);
    }
    // the file kept with the invoice comes back as it was written
    const [adminRow] = await db().select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    const admin = (await loadCurrentUser(db(), adminRow!.id))!;
    const [nl] = rowsOf<{ id: number }>(await db().execute(sql`select id from invoices where invoice_number = ${DEMO_INVOICE_NUMBERS.NORTHLINE}`));
    const file = await originalFile(db(), admin, nl!.id);
    expect(file.headers.get("content-type")).toBe("text/csv");
    const text = await file.text();
    expect(text).toContain("TAX INVOICE");
    expect(text).toContain(NEVER_ISSUED.NORTHLINE);
  });

  it("bills the consignments' rated buy costs except on the lines that differ on purpose", () => {
    // Northline line 2 and Australia Post line 1 are billed as rated
    for (const l of [of(all, DEMO_INVOICE_NUMBERS.NORTHLINE)[1]!, of(all, DEMO_INVOICE_NUMBERS.auspost)[0]!]) {
      expect(l.costs!.freight_charge).toBeCloseTo(rated(l, "freight_charge"), 2);
      expect(l.costs!.fuel_charge).toBeCloseTo(rated(l, "fuel_charge"), 2);
      expect(Number(l.total_charge_weight)).toBeCloseTo(l.rated!.charge_weight, 2);
    }
    // a charge weight above the rated one (Northline and Simulated Express line 1)
    for (const number of [DEMO_INVOICE_NUMBERS.NORTHLINE, DEMO_INVOICE_NUMBERS.SIMEX]) {
      const l = of(all, number)[0]!;
      expect(Number(l.total_charge_weight)).toBeGreaterThan(l.rated!.charge_weight);
      expect(l.costs!.freight_charge).toBeGreaterThan(rated(l, "freight_charge"));
    }
    const ap = of(all, DEMO_INVOICE_NUMBERS.auspost);
    // another zone (line 2) and a surcharge never rated (line 3), grouped from one row per charge
    expect(ap[1]!.receiver_zone).not.toBe(ap[1]!.rated!.to_zone);
    expect(ap[2]!.costs!.manual_handling_surcharge).toBe(14.5);
    expect(ap[2]!.rated!.buy.some((b) => b.category === "manual_handling_surcharge")).toBe(false);
    // numbers the system never issued
    for (const [number, unknown] of [[DEMO_INVOICE_NUMBERS.NORTHLINE, NEVER_ISSUED.NORTHLINE], [DEMO_INVOICE_NUMBERS.SIMEX, NEVER_ISSUED.SIMEX]]) {
      const l = of(all, number!).at(-1)!;
      expect(l.consignment_number).toBe(unknown);
      expect(l.rated).toBeNull();
    }
  });

  it("allocates two invoices by consignment number, fails the unknown number with its reason, and leaves one for the Allocate button", () => {
    const nl = of(all, DEMO_INVOICE_NUMBERS.NORTHLINE);
    expect(nl.slice(0, 3).map((l) => [l.state, l.allocated_by, l.consignment_id != null])).toEqual(Array(3).fill(["allocated", "consignment", true]));
    expect(nl[3]!.state).toBe("allocation_failure");
    expect(nl[3]!.allocation_error).toMatch(new RegExp(`^No consignment ${NEVER_ISSUED.NORTHLINE} for this carrier`));
    // one line failed: the invoice is not allocated yet
    expect(nl[0]!.invoice_state).toBe("unallocated");
    const ap = of(all, DEMO_INVOICE_NUMBERS.auspost);
    expect(ap.every((l) => l.state === "allocated" && l.allocated_by === "consignment" && l.customer_id != null)).toBe(true);
    expect(ap[0]!.invoice_state).toBe("allocated");
    const sx = of(all, DEMO_INVOICE_NUMBERS.SIMEX);
    expect(sx.every((l) => l.state === "unallocated" && l.allocated_by == null && l.allocation_error == null)).toBe(true);
    expect(sx[0]!.invoice_state).toBe("unallocated");
  });

  it("keeps two allocation rules for the unallocated carrier", async () => {
    const rules = rowsOf<{ code: string; model: string; type: string }>(
      await db().execute(sql`select c.code, r.allocation_model as model, r.type from allocation_rules r join carriers c on c.id = r.carrier_id where not r.deleted order by r.id`),
    );
    expect(rules).toEqual([
      { code: "SIMEX", model: "Customer", type: "Lookup" },
      { code: "SIMEX", model: "Site", type: "Lookup" },
    ]);
  });

  it("adds nothing when seeded again", async () => {
    const before = await counts();
    // the three carrier invoices, and the one customer invoice the demo's invoicing makes
    expect(before).toMatchObject({ invoices: 3, customer_invoices: 1, lines: 11, consignments: 9, templates: 3, rules: 2 });
    expect(await seedDemoIfEmpty(db())).toBe(false);
    expect(await seedDemoInvoices(db())).toBeNull();
    expect(await counts()).toEqual(before);
  });
});
