/**
 * The invoiceable payable lines invoicing bills, with their cost lines and what the customer is
 * charged for each (sell.ts): read by the job, and by startInvoicing to refuse by name a charge
 * already billed (billed-once.server.ts) before any job is queued.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, consignments, customers, invoiceCosts, invoiceDetails, reconciliations } from "../../../db/schema";
import { consignmentKeysOf, type Charge, chargesOf } from "./billed-once.server";
import { invoiceableSql } from "./invoiceable.server";
import { sellFor, type SellResult, type SellSource } from "./sell";

export type Loaded = Awaited<ReturnType<typeof loadLines>>[number];
export type CostsOf = Map<number, Array<{ category: string; description: string; amount: string }>>;

export async function loadLines(db: DbOrTx, ids: number[]) {
  return db
    .select({
      d: invoiceDetails,
      recId: reconciliations.id,
      chargeFromConsignment: reconciliations.chargeFromConsignment,
      rerateDetail: reconciliations.rerateDetail,
      ratingDetail: consignments.ratingDetail,
      /** the matched consignment's own carrier and number: one of the names its charges are billed under */
      own: { carrierId: carrierAccounts.carrierId, consignmentNumber: consignments.consignmentNumber },
      customerName: customers.name,
      customerOptions: customers.options,
      customerBilling: customers.billingAddress,
    })
    .from(invoiceDetails)
    .innerJoin(reconciliations, eq(reconciliations.invoiceDetailId, invoiceDetails.id))
    .innerJoin(customers, eq(customers.id, invoiceDetails.customerId))
    .leftJoin(consignments, eq(consignments.id, invoiceDetails.consignmentId))
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .where(and(inArray(invoiceDetails.id, ids), invoiceableSql))
    .orderBy(asc(invoiceDetails.customerId), asc(invoiceDetails.despatchDate), asc(invoiceDetails.consignmentNumber), asc(invoiceDetails.id));
}

/** The lines' cost lines, a thousand lines a query. */
export async function loadCosts(db: DbOrTx, lines: Loaded[]): Promise<CostsOf> {
  const costsOf: CostsOf = new Map();
  for (let i = 0; i < lines.length; i += 1000) {
    const part = lines.slice(i, i + 1000).map((l) => l.d.id);
    const rows = await db.select({ detailId: invoiceCosts.invoiceDetailId, category: invoiceCosts.category, description: invoiceCosts.description, amount: invoiceCosts.amount }).from(invoiceCosts).where(inArray(invoiceCosts.invoiceDetailId, part)).orderBy(asc(invoiceCosts.id));
    for (const c of rows) {
      const list = costsOf.get(c.detailId) ?? [];
      list.push(c);
      costsOf.set(c.detailId, list);
    }
  }
  return costsOf;
}

/** What the customer is charged for the line (cents). */
export const sellOfLine = (l: Loaded, costsOf: CostsOf): SellResult =>
  sellFor({ chargeFromConsignment: l.chargeFromConsignment, rating: (l.rerateDetail ?? l.ratingDetail) as SellSource["rating"], invoiceCosts: costsOf.get(l.d.id) ?? [] });

/** The (consignment, category) charges the lines bill, in the lines' order. */
export const lineCharges = (lines: Loaded[], sells: SellResult[]): Charge[] =>
  chargesOf(lines.map((l, i) => ({ lineId: l.d.id, consignmentNumber: l.d.consignmentNumber, keys: consignmentKeysOf(l.d, l.own), sells: sells[i]!.lines })));
