/**
 * Issue 29 finding 7 (decision 027): 'Past fortnight' is one range on the payable and receivable
 * lists, in the user's own time zone and including today; an invoice dated after today, such as a
 * carrier's future-dated invoice just imported, is on the default list.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, customers, invoices, jobs, sites, users } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { loadCurrentUser, type CurrentUser } from "../../app/modules/auth/current-user.server";
import { userToday } from "../../app/modules/calendar/site-time";
import { importedInvoiceIds } from "../../app/modules/invoices/import.server";
import { listPayable } from "../../app/modules/invoices/list.server";
import { addDays } from "../../app/modules/invoices/schemas";
import { listReceivable } from "../../app/modules/invoicing/receivable.server";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
const db = () => test.database.db;
let finance: CurrentUser;
let admin: CurrentUser;

beforeAll(async () => {
  test = await createTestDatabase();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
  // every site at UTC-11: the user's today is always a day behind the latest today anywhere (UTC+14)
  await db().update(sites).set({ timezone: "Pacific/Pago_Pago" });
  // staff have no site: their own setting puts them there too (decision 032)
  await db().update(users).set({ timezone: "Pacific/Pago_Pago" });
  const [u] = await db().select().from(users).where(eq(users.email, "finance@example.com"));
  finance = (await loadCurrentUser(db(), u!.id))!;
  const [a] = await db().select().from(users).where(eq(users.email, "admin@example.com"));
  admin = (await loadCurrentUser(db(), a!.id))!;
}, 180_000);
afterAll(() => test.drop());

describe("the invoice lists' dates", () => {
  it("'Past fortnight' is the same fourteen days up to today, in the user's time zone, on both lists", async () => {
    const today = userToday(finance);
    expect(today).toBe(new Date(Date.now() - 11 * 3_600_000).toISOString().slice(0, 10));
    const payable = await listPayable(db(), finance, {});
    const receivable = await listReceivable(db(), finance, {});
    expect(payable.filters).toMatchObject({ date: "fortnight", from: addDays(today, -13), to: today });
    expect(receivable.filters).toMatchObject({ date: "fortnight", from: payable.filters.from, to: payable.filters.to });
  });

  it("shows an invoice dated after today on the default lists, as it is right after its import", async () => {
    const today = userToday(admin);
    const [carrier] = await db().select().from(carriers).where(eq(carriers.code, "NORTHLINE"));
    const [payable] = await db()
      .insert(invoices)
      .values({ accountingType: "payable", invoiceNumber: "NL-FUTURE-1", carrierId: carrier!.id, invoiceDate: addDays(today, 5), state: "unallocated", total: "10.00" })
      .returning();
    const [customer] = await db().select().from(customers).where(eq(customers.code, "ACME"));
    await db()
      .insert(invoices)
      .values({ accountingType: "receivable", invoiceNumber: "INV-FUTURE-1", customerId: customer!.id, invoiceDate: addDays(today, 1), state: "invoiced", total: "10.00" });
    const payableList = await listPayable(db(), admin, {});
    expect(payableList.invoices.map((i) => i.id)).toContain(payable!.id);
    const receivableList = await listReceivable(db(), admin, {});
    expect(JSON.stringify(receivableList)).toContain("INV-FUTURE-1");
    // a range that ends on a day stops there
    const lastWeek = await listPayable(db(), admin, { date: "last_week" });
    expect(lastWeek.invoices.map((i) => i.id)).not.toContain(payable!.id);
    const typed = await listPayable(db(), admin, { date: "custom", from: addDays(today, -3), to: today });
    expect(typed.invoices.map((i) => i.id)).not.toContain(payable!.id);
  });

  it("right after an import shows the invoices it made whatever their dates, within the reader's scope, and nothing while it works", async () => {
    const today = userToday(admin);
    const [carrier] = await db().select().from(carriers).where(eq(carriers.code, "NORTHLINE"));
    const [old] = await db()
      .insert(invoices)
      .values({ accountingType: "payable", invoiceNumber: "NL-OLD-1", carrierId: carrier!.id, invoiceDate: addDays(today, -200), state: "unallocated", total: "10.00" })
      .returning();
    const [job] = await db()
      .insert(jobs)
      .values({ name: "invoices.import", userId: admin.id, customerId: admin.customer.id, status: "complete", info: { files: [], invoice_ids: [old!.id] } })
      .returning();
    expect((await listPayable(db(), admin, {})).invoices.map((i) => i.id)).not.toContain(old!.id);
    const only = await importedInvoiceIds(db(), admin, job!.id);
    expect(only).toEqual([old!.id]);
    const shown = await listPayable(db(), admin, {}, { only: only! });
    expect(shown.invoices.map((i) => i.id)).toEqual([old!.id]);
    expect(shown.filters.state).toBe("all");
    // a customer's finance user is shown none of it: no line of it is theirs
    expect((await listPayable(db(), finance, {}, { only: only! })).invoices).toEqual([]);
    // while the job works, or for a job that is not there, the usual list
    await db().update(jobs).set({ status: "working" }).where(eq(jobs.id, job!.id));
    expect(await importedInvoiceIds(db(), admin, job!.id)).toBeNull();
    expect(await importedInvoiceIds(db(), admin, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});
