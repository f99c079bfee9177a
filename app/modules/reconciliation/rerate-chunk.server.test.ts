/**
 * rerateLines reads a chunk's facts together and writes its outcomes in one statement
 * (rerate-facts.server.ts, issue 19's reconcile bench): each line must still get exactly the
 * outcome, and the stored re-rate, it gets when re-rated alone.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { invoiceDetails, reconciliations } from "../../../db/schema";
import { seedDemoIfEmpty } from "../../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS } from "../../../db/seed/invoices";
import { loadLocalities } from "../../../db/seed/localities";
import { rowsOf } from "../../utils/sql-rows";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { rerateLines } from "./rerate.server";

let test: TestDatabase;
const db = () => test.database.db;

async function recOf(invoiceNumber: string, lineNumber: number) {
  const [row] = rowsOf<{ id: number; invoice_detail_id: number }>(
    await db().execute(sql`select r.id, r.invoice_detail_id from reconciliations r join invoice_details d on d.id = r.invoice_detail_id join invoices i on i.id = d.invoice_id
      where i.invoice_number = ${invoiceNumber} and d.line_number = ${lineNumber}`),
  );
  return row!;
}
const stored = async (ids: number[]) =>
  (
    await db()
      .select({ id: reconciliations.id, required: reconciliations.rerateRequired, status: reconciliations.rerateStatus, error: reconciliations.rerateError, detail: reconciliations.rerateDetail })
      .from(reconciliations)
      .where(inArray(reconciliations.id, ids))
  ).sort((a, b) => a.id - b.id);
const forget = (ids: number[]) => db().update(reconciliations).set({ rerateStatus: "loading", rerateError: null, rerateDetail: null }).where(inArray(reconciliations.id, ids));

beforeAll(async () => {
  test = await createTestDatabase();
  await loadLocalities(db(), ["AUSTRALIA"]);
  expect(await seedDemoIfEmpty(db())).toBe(true);
}, 180_000);
afterAll(() => test.drop());

it("gives each line of a chunk the outcome and stored re-rate it gets alone", async () => {
  const weight = await recOf(DEMO_INVOICE_NUMBERS.NORTHLINE, 1);
  const zone = await recOf(DEMO_INVOICE_NUMBERS.auspost, 2);
  const same = await recOf(DEMO_INVOICE_NUMBERS.auspost, 3);
  const orphan = await recOf(DEMO_INVOICE_NUMBERS.auspost, 1);
  const weightless = await recOf(DEMO_INVOICE_NUMBERS.NORTHLINE, 2);
  const other = await recOf(DEMO_INVOICE_NUMBERS.NORTHLINE, 3);
  // one line without its consignment, one billed for no weight: errors amid the priced lines;
  // one whose invoice names no places, so its consignment's own addresses are rated
  await db().update(invoiceDetails).set({ senderLocality: null, senderPostcode: null, receiverLocality: null, receiverPostcode: null }).where(eq(invoiceDetails.id, weight.invoice_detail_id));
  await db().update(reconciliations).set({ consignmentId: null }).where(eq(reconciliations.id, orphan.id));
  await db().update(invoiceDetails).set({ totalChargeWeight: "0" }).where(eq(invoiceDetails.id, weightless.invoice_detail_id));
  const ids = [weight.id, same.id, orphan.id, zone.id, weightless.id, other.id];

  const alone = [];
  for (const id of ids) alone.push(...(await rerateLines(db(), [id])));
  const storedAlone = await stored(ids);
  await forget(ids);
  const together = await rerateLines(db(), [...ids, weight.id, 99_999_999]);

  expect(together).toEqual(alone);
  expect(await stored(ids)).toEqual(storedAlone);
  // the chunk held every kind of outcome, and the priced lines differ from one another
  expect(new Set(together.map((o) => o.status))).toEqual(new Set(["rerated", "rerate_not_required", "rerate_error"]));
  expect(together.filter((o) => o.error).map((o) => o.error)).toEqual(["No consignment found", "Must have weight"]);
  const details = storedAlone.filter((r) => r.detail).map((r) => JSON.stringify(r.detail));
  expect(details.length).toBeGreaterThanOrEqual(2);
  expect(new Set(details).size).toBe(details.length);
});

it("does not overwrite a line whose version moved while the chunk was priced (a Re Run or a cost change re-rated it)", async () => {
  const a = await recOf(DEMO_INVOICE_NUMBERS.auspost, 2);
  const b = await recOf(DEMO_INVOICE_NUMBERS.NORTHLINE, 3);
  await forget([a.id, b.id]);
  await rerateLines(db(), [a.id, b.id], {
    // someone else's save lands meanwhile: it raised a's version and stored its own outcome
    beforeWrite: async () => {
      await db()
        .update(reconciliations)
        .set({ version: sql`${reconciliations.version} + 1`, rerateStatus: "rerate_error", rerateError: "theirs" })
        .where(eq(reconciliations.id, a.id));
    },
  });
  const after = await stored([a.id, b.id]);
  const sa = after.find((r) => r.id === a.id);
  const sb = after.find((r) => r.id === b.id);
  expect(sa).toMatchObject({ status: "rerate_error", error: "theirs" });
  expect(sb!.status).not.toBe("loading");
});
