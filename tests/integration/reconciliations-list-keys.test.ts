/**
 * @engines: PostgreSQL and PGlite in CI, because the list keys are kept by triggers, which both engines must run alike.
 *
 * The reconciliations list's copies kept by triggers (migration 0023): the invoice line's filter
 * and sort keys on each reconciliation, and the tallies ledger the tab counts and totals are read
 * from. Each is checked against the truth it copies: the keys against the invoice line after the
 * line and its invoice are edited, the tallies against a count over the rows after inserts,
 * the reconcile job's upsert, bulk actions, deletes and compaction.
 */
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.server";
import { carriers, customers, invoiceDetails, invoices, reconciliations, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadCurrentUser, type CurrentUser } from "../../app/modules/auth/current-user.server";
import { bulkUpdate } from "../../app/modules/reconciliation/bulk.server";
import { listMeta, listReconciliations } from "../../app/modules/reconciliation/list.server";
import { reconcileLines } from "../../app/modules/reconciliation/reconcile.server";
import { compactReconciliationTallies } from "../../app/modules/reconciliation/tallies.server";
import { deleteInvoices } from "../../app/modules/invoices/actions.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
let db: Db;
let admin: CurrentUser;
let finance: CurrentUser;
const ids = {} as Record<"northline" | "auspost" | "acme" | "testco", number>;

async function invoiceWith(number: string, carrierId: number, customerId: number, count: number) {
  const [inv] = await db.insert(invoices).values({ accountingType: "payable", invoiceNumber: number, carrierId, state: "allocated", total: "0" }).returning();
  const recIds: number[] = [];
  for (let n = 1; n <= count; n++) {
    const [d] = await db
      .insert(invoiceDetails)
      .values({ invoiceId: inv!.id, lineNumber: n, carrierId, customerId, state: "allocated", consignmentNumber: `kc${number}-${n}`, senderZone: "mel", receiverZone: n % 2 ? "syd" : "per", totalChargeWeight: (n * 2).toFixed(3), totalCost: "10" })
      .returning();
    const [r] = await db
      .insert(reconciliations)
      .values({ invoiceDetailId: d!.id, customerId, carrierId, state: n % 3 === 0 ? "reconciled" : "reconciling", reasonCategories: n % 3 === 0 ? [] : n % 2 ? ["zone"] : ["surcharge", "zone"], margin: (n - 2).toFixed(2), discrepancyAmount: n.toFixed(2) })
      .returning();
    recIds.push(r!.id);
  }
  return { invoiceId: inv!.id, recIds };
}

/** the meta_data both ways, for the filters the tallies serve */
async function bothWays(user: CurrentUser, query: Record<string, unknown>) {
  const fromTallies = await listMeta(db, user, query);
  const counted = await listMeta(db, user, query, { scan: true });
  return { fromTallies, counted };
}

async function expectTalliesTrue() {
  for (const user of [admin, finance]) {
    for (const query of [{}, { state: "reconciled" }, { state: "disputed" }, { customer_id: ids.testco }, { carrier_code: "NORTHLINE", state: "reconciled" }, { customer_id: ids.acme, carrier_code: "auspost" }, { reasons: "surcharge" }, { reasons: "surcharge,check_wt_vol", customer_id: ids.testco, state: "disputed" }]) {
      const { fromTallies, counted } = await bothWays(user, query);
      expect(fromTallies, JSON.stringify({ user: user.email, query })).toEqual(counted);
      const page = await listReconciliations(db, user, { ...query, per_page: 20 });
      expect(page.pagination.total_records).toBe(counted.states[((query as { state?: string }).state ?? "reconciling") as "reconciling"]);
    }
  }
}

beforeAll(async () => {
  test = await createTestDatabase();
  db = test.database.db;
  await seedDemo(db);
  const carrier = async (code: string) => (await db.select().from(carriers).where(eq(carriers.code, code)))[0]!.id;
  const customer = async (code: string) => (await db.select().from(customers).where(eq(customers.code, code)))[0]!.id;
  ids.northline = await carrier("NORTHLINE");
  ids.auspost = await carrier("auspost");
  ids.acme = await customer("ACME");
  ids.testco = await customer("TESTCO");
  const who = async (email: string) => (await loadCurrentUser(db, (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id))!;
  admin = await who("admin@example.com");
  finance = await who("finance@example.com");
}, 120_000);
afterAll(() => test?.drop());

describe("the invoice line's keys on its reconciliation", () => {
  it("are copied upper-cased when the reconciliation is made, and follow edits to the line and its invoice", async () => {
    const { invoiceId, recIds } = await invoiceWith("Keys-1", ids.northline, ids.acme, 2);
    const keys = async (id: number) => (await db.select().from(reconciliations).where(eq(reconciliations.id, id)))[0]!;
    expect(await keys(recIds[0]!)).toMatchObject({ invoiceId, consignmentKey: "KCKEYS-1-1", invoiceNumberKey: "KEYS-1", fromZoneKey: "MEL", toZoneKey: "SYD", chargeWeight: "2.000" });
    const [line] = await db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, invoiceId)).orderBy(invoiceDetails.lineNumber);
    await db.update(invoiceDetails).set({ consignmentNumber: "new-cn", senderZone: "bne", receiverZone: null, totalChargeWeight: "7.5" }).where(eq(invoiceDetails.id, line!.id));
    expect(await keys(recIds[0]!)).toMatchObject({ consignmentKey: "NEW-CN", fromZoneKey: "BNE", toZoneKey: null, chargeWeight: "7.500" });
    // the other line of the invoice is not touched
    expect(await keys(recIds[1]!)).toMatchObject({ consignmentKey: "KCKEYS-1-2", toZoneKey: "PER" });
    await db.update(invoices).set({ invoiceNumber: "Renamed-7" }).where(eq(invoices.id, invoiceId));
    expect((await keys(recIds[0]!)).invoiceNumberKey).toBe("RENAMED-7");
    expect((await keys(recIds[1]!)).invoiceNumberKey).toBe("RENAMED-7");
  });

  it("are written by the reconcile job's own upsert (which spares itself the per-row trigger), and its runs keep the tallies true", async () => {
    const [inv] = await db.insert(invoices).values({ accountingType: "payable", invoiceNumber: "Job-k1", carrierId: ids.northline, state: "allocated", total: "0" }).returning();
    for (let n = 1; n <= 3; n++) {
      await db.insert(invoiceDetails).values({ invoiceId: inv!.id, lineNumber: n, carrierId: ids.northline, customerId: ids.acme, state: "allocated", consignmentNumber: `job-cn-${n}`, senderZone: "adl", receiverZone: "drw", totalChargeWeight: "3.5", totalCost: "10" });
    }
    const result = await reconcileLines(db, { invoiceIds: [inv!.id] });
    expect(result.compared).toBe(3);
    const rows = await db.select().from(reconciliations).where(eq(reconciliations.invoiceId, inv!.id)).orderBy(reconciliations.id);
    expect(rows.map((r) => [r.consignmentKey, r.invoiceNumberKey, r.fromZoneKey, r.toZoneKey, r.chargeWeight])).toEqual(
      [1, 2, 3].map((n) => [`JOB-CN-${n}`, "JOB-K1", "ADL", "DRW", "3.500"]),
    );
    await expectTalliesTrue();
    // run again: the same lines, the same tallies
    await reconcileLines(db, { invoiceIds: [inv!.id] });
    await expectTalliesTrue();
  });

  it("serve the list's filters and sorts: lower-case input finds upper- and lower-case values", async () => {
    const { invoiceId } = await invoiceWith("Keys-2", ids.northline, ids.acme, 4);
    const page = await listReconciliations(db, admin, { invoice_id: invoiceId, consignment_number: "kckeys-2-", order_by: "weight", order_direction: "desc" });
    // lines 1, 2 and 4 are reconciling (3 is reconciled), heaviest first
    expect(page.reconciliations.map((r) => r.consignment_number)).toEqual(["kcKeys-2-4", "kcKeys-2-2", "kcKeys-2-1"]);
    expect(page.reconciliations[0]).toMatchObject({ invoice_number: "Keys-2", from_zone: "mel", to_zone: "per", weight: 8 });
    const zone = await listReconciliations(db, admin, { invoice_id: invoiceId, to_zone: "SYD", order_by: "consignment_number" });
    expect(zone.reconciliations.map((r) => r.consignment_number)).toEqual(["kcKeys-2-1"]);
    const byNumber = await listReconciliations(db, admin, { invoice_number: "keys-2", weight: 4 });
    expect(byNumber.reconciliations.map((r) => r.consignment_number)).toEqual(["kcKeys-2-2"]);
  });
});

describe("a page chosen either way", () => {
  it("is the same whether the matches are read whole and sorted or read in the sort's order", async () => {
    await invoiceWith("Ways-1", ids.northline, ids.acme, 12);
    await invoiceWith("Ways-2", ids.auspost, ids.testco, 12);
    for (const user of [admin, finance]) {
      for (const query of [
        { invoice_number: "ways-", order_by: "weight", order_direction: "desc", per_page: 20, page: 1 },
        { invoice_number: "ways-", per_page: 20, page: 2 },
        { from_zone: "MEL", order_by: "consignment_number", per_page: 20 },
        { to_zone: "per", state: "reconciled", order_by: "invoice_number", order_direction: "desc", per_page: 20 },
        { consignment_number: "KCWAYS-2", order_by: "margin", per_page: 20 },
      ]) {
        const sorted = await listReconciliations(db, user, query, { fewRows: 1_000_000 });
        const walked = await listReconciliations(db, user, query, { fewRows: 0 });
        expect(walked, JSON.stringify({ user: user.email, query })).toEqual(sorted);
      }
    }
    const page = await listReconciliations(db, admin, { invoice_number: "ways-", order_by: "weight", order_direction: "desc", per_page: 20 }, { fewRows: 0 });
    expect(page.reconciliations.length).toBeGreaterThan(5);
    expect(page.reconciliations.map((r) => r.weight)).toEqual([...page.reconciliations.map((r) => r.weight)].sort((a, b) => b! - a!));
  });
});

describe("the tallies the tab counts and totals are read from", () => {
  it("agree with a count over the rows after inserts, bulk actions, resets and deletes", async () => {
    await invoiceWith("Tally-A", ids.northline, ids.acme, 9);
    const theirs = await invoiceWith("Tally-T", ids.auspost, ids.testco, 5);
    await expectTalliesTrue();
    // a bulk dispute moves lines between tabs; a note alone moves nothing
    const disputed = await bulkUpdate(db, admin, "dispute", { ids: theirs.recIds.slice(0, 2), note: "Weight is wrong" });
    expect(disputed.done.map((d) => d.to)).toEqual(["disputed", "disputed"]);
    await bulkUpdate(db, admin, "accept", { ids: [theirs.recIds[3]!], note: "Fine" });
    await db.update(reconciliations).set({ margin: "123.45" }).where(eq(reconciliations.id, theirs.recIds[4]!));
    await db.update(reconciliations).set({ rerateError: "unchanged tallies" }).where(eq(reconciliations.invoiceId, theirs.invoiceId));
    await expectTalliesTrue();
    await bulkUpdate(db, admin, "reset", { ids: theirs.recIds.slice(0, 2) });
    await expectTalliesTrue();
    // deleting an invoice takes its lines' reconciliations with it (a cascade)
    await deleteInvoices(db, admin, { ids: [theirs.invoiceId] });
    await expectTalliesTrue();
  });

  it("are folded by compaction without changing a count, and new writes after it still count", async () => {
    const before = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from reconciliation_tallies`))[0]!.n;
    const folded = await compactReconciliationTallies(db);
    const after = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from reconciliation_tallies`))[0]!.n;
    expect(folded).toBeGreaterThan(0);
    expect(after).toBe(before - folded);
    // one row at most per customer, carrier, state and reasons, and none that adds up to nothing
    const groups = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (select distinct customer_id, carrier_id, state, reasons from reconciliation_tallies) g`))[0]!.n;
    expect(after).toBe(groups);
    await expectTalliesTrue();
    await invoiceWith("Tally-B", ids.auspost, ids.acme, 4);
    await expectTalliesTrue();
    expect(await compactReconciliationTallies(db)).toBeGreaterThan(0);
    await expectTalliesTrue();
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("two writers at once (PostgreSQL)", () => {
  it("changing lines of one customer and carrier in two open transactions: neither waits for the other", async () => {
    const { recIds } = await invoiceWith("Tally-W", ids.northline, ids.acme, 2);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${rowsOf<{ d: string }>(await db.execute(sql`select current_database() as d`))[0]!.d}`;
    const a = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const b = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await a.begin(async (ta) => {
        await ta`update reconciliations set state = 'disputed' where id = ${recIds[0]!}`;
        // the first transaction is still open, its tally appended: the second must not queue behind it
        await b.begin(async (tb) => {
          await tb`set local lock_timeout = '2s'`;
          await tb`update reconciliations set state = 'disputed' where id = ${recIds[1]!}`;
        });
      });
    } finally {
      await a.end();
      await b.end();
    }
    await expectTalliesTrue();
  });
});
