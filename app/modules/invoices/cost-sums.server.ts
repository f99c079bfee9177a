import { asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoiceCosts, invoiceDetails } from "../../../db/schema";

/** An invoice's cost lines summed per category (amounts as numeric text), by category: what a bill or a sale is made of. */
export async function costSumsByCategory(db: DbOrTx, invoiceId: number): Promise<Array<{ category: string; amount: string }>> {
  return db
    .select({ category: invoiceCosts.category, amount: sql<string>`sum(${invoiceCosts.amount})::text` })
    .from(invoiceCosts)
    .innerJoin(invoiceDetails, eq(invoiceDetails.id, invoiceCosts.invoiceDetailId))
    .where(eq(invoiceDetails.invoiceId, invoiceId))
    .groupBy(invoiceCosts.category)
    .orderBy(asc(invoiceCosts.category));
}
