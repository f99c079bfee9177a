/**
 * Reconciling the demo's allocated carrier invoices (issue 19 item 1): each line against its
 * consignment's stored rating, buy against buy. The demo's seed reconciles them with the job's own
 * function; it bills most lines as rated and a few differently on purpose (decision 019 "Demo
 * invoices"), each of those left reconciling with the reason for it. Running again changes
 * nothing, and a line someone disputed is kept.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS, NEVER_ISSUED } from "../../db/seed/invoices";
import { loadLocalities } from "../../db/seed/localities";
import { reconcileLines } from "../../app/modules/reconciliation/reconcile.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
const db = () => test.database.db;

interface Rec {
  invoice_number: string;
  line_number: number;
  consignment_number: string;
  state: string;
  reason_categories: string[];
  discrepancy_amount: string;
  rated_buy: string;
  invoiced: string;
  version: number;
  rerate_required: boolean;
  rerate_status: string | null;
}
const recs = async () =>
  rowsOf<Rec>(
    await db().execute(sql`
      select i.invoice_number, d.line_number, d.consignment_number, r.state, r.reason_categories, r.discrepancy_amount::text, r.rated_buy::text, r.invoiced::text, r.version, r.rerate_required, r.rerate_status
      from reconciliations r join invoice_details d on d.id = r.invoice_detail_id join invoices i on i.id = d.invoice_id
      order by i.id, d.line_number`),
  );
const invoiceIds = async () =>
  rowsOf<{ id: number }>(await db().execute(sql`select id from invoices where invoice_number in (${DEMO_INVOICE_NUMBERS.NORTHLINE}, ${DEMO_INVOICE_NUMBERS.auspost}) order by id`)).map((r) => r.id);
const line = (all: Rec[], number: string, n: number) => all.find((r) => r.invoice_number === number && r.line_number === n);

beforeAll(async () => {
  test = await createTestDatabase();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
}, 180_000);
afterAll(() => test.drop());

describe("reconcileLines", () => {
  it("reconciles the lines billed as rated and gives each deliberate difference its reason", async () => {
    // the seed reconciled the two allocated invoices
    const all = await recs();
    // Northline's never-issued number was not allocated: nothing to compare it with
    expect(all.map((r) => r.consignment_number)).not.toContain(NEVER_ISSUED.NORTHLINE);
    expect(all).toHaveLength(6);

    const nl = DEMO_INVOICE_NUMBERS.NORTHLINE;
    const ap = DEMO_INVOICE_NUMBERS.auspost;
    // billed as rated: nothing between them, reconciled without a reason
    for (const r of [line(all, nl, 2), line(all, nl, 3), line(all, ap, 1)]) {
      expect(r, JSON.stringify(r)).toMatchObject({ state: "reconciled", reason_categories: [], discrepancy_amount: "0.00" });
      expect(r!.invoiced).toBe(r!.rated_buy);
    }
    // a charge weight above the rated one, billed for it
    expect(line(all, nl, 1)).toMatchObject({ state: "reconciling", reason_categories: ["check_wt_vol"], rerate_required: true });
    expect(Number(line(all, nl, 1)!.discrepancy_amount)).toBeGreaterThan(0);
    // another zone
    expect(line(all, ap, 2)).toMatchObject({ state: "reconciling", reason_categories: ["zone"], rerate_required: true });
    // a manual handling surcharge that was never rated: 14.50 more, nothing to re-rate (the demo
    // then disputes it with a note, db/seed/invoices/reconciliation-states.ts)
    expect(line(all, ap, 3)).toMatchObject({ state: "disputed", reason_categories: ["surcharge"], discrepancy_amount: "14.50", rerate_required: false });
    // the job re-rated the two lines that needed it, so none is left "Loading..." for Re Run
    expect(line(all, nl, 1)!.rerate_status).toBe("rerated");
    expect(line(all, ap, 2)!.rerate_status).toBe("rerated");
    expect(all.filter((r) => r.rerate_status === "loading")).toEqual([]);
  });

  it("changes nothing when run again, and keeps a line someone disputed", async () => {
    const before = await recs();
    const again = await reconcileLines(db(), { invoiceIds: await invoiceIds() });
    // the reconciled and the disputed ones were decided; the reconciling ones are worked out again to the same
    expect(again).toEqual({ compared: 2, reconciled: 0, reconciling: 2, kept: 4 });
    expect(await recs()).toEqual(before);

    // a dispute stands even when the line's costs change and the job runs again
    await db().execute(sql`update reconciliations set state = 'disputed' where invoice_detail_id = (
      select d.id from invoice_details d join invoices i on i.id = d.invoice_id where i.invoice_number = ${DEMO_INVOICE_NUMBERS.auspost} and d.line_number = 3)`);
    await db().execute(sql`update invoice_costs set amount = amount + 1 where category = 'freight_charge' and invoice_detail_id in (
      select d.id from invoice_details d join invoices i on i.id = d.invoice_id where i.invoice_number = ${DEMO_INVOICE_NUMBERS.auspost})`);
    const third = await reconcileLines(db(), { invoiceIds: await invoiceIds() });
    expect(third.kept).toBe(4);
    const after = await recs();
    const disputed = line(after, DEMO_INVOICE_NUMBERS.auspost, 3)!;
    expect(disputed).toMatchObject({ state: "disputed", discrepancy_amount: "14.50", version: line(before, DEMO_INVOICE_NUMBERS.auspost, 3)!.version });
    // the zone line was still reconciling: it is worked out again with the dollar more, and its version moves
    const zone = line(after, DEMO_INVOICE_NUMBERS.auspost, 2)!;
    expect(Number(zone.discrepancy_amount)).toBeCloseTo(Number(line(before, DEMO_INVOICE_NUMBERS.auspost, 2)!.discrepancy_amount) + 1, 2);
    expect(zone.version).toBe(line(before, DEMO_INVOICE_NUMBERS.auspost, 2)!.version + 1);
  });

  it("does nothing without a target", async () => {
    expect(await reconcileLines(db(), {})).toEqual({ compared: 0, reconciled: 0, reconciling: 0, kept: 0 });
  });
});
