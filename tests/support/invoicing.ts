import type { Db } from "../../db/client.server";
import { invoiceCosts, invoiceDetails, invoices, reconciliations } from "../../db/schema";

let seq = 0;

/**
 * A reconciled payable line of `customerId` on a payable invoice of its own, so it is invoiceable:
 * a freight cost line and, past the first amount, fuel levies; charged from the invoice (no
 * consignment, so at cost).
 */
export async function reconciledLine(db: Db, customerId: number, over: Partial<typeof invoiceDetails.$inferInsert> = {}, amounts: string[] = ["10.00"]): Promise<number> {
  seq += 1;
  const [inv] = await db.insert(invoices).values({ accountingType: "payable", invoiceNumber: `T-${seq}-${Date.now()}`, carrierId: over.carrierId ?? null, state: "allocated", total: "0" }).returning();
  const [d] = await db
    .insert(invoiceDetails)
    .values({ invoiceId: inv!.id, lineNumber: 1, customerId, state: "allocated", consignmentNumber: `TCN${seq}-${Date.now()}`, receiverName: "Receiver", despatchDate: "2026-11-20", totalCost: "0", ...over })
    .returning();
  await db.insert(invoiceCosts).values(amounts.map((amount, i) => ({ invoiceDetailId: d!.id, category: i === 0 ? ("freight_charge" as const) : ("fuel_charge" as const), description: i === 0 ? "Freight" : "Fuel levy", amount })));
  await db.insert(reconciliations).values({ invoiceDetailId: d!.id, customerId, carrierId: over.carrierId ?? null, state: "reconciled", chargeFromConsignment: false });
  return d!.id;
}
