/**
 * Demo (issue 19 item 8): one of the demo's Un-Reconciled lines disputed with a note, through the
 * list's bulk action as the demo admin, so the Disputed tab has a line to show. The Australia Post
 * invoice's unrated manual handling surcharge is the line disputed (the carrier's charge we never
 * rated), else its first Un-Reconciled line. No e-mail at seed time. Runs once: a demo that has a
 * disputed line (or no such line) is left as it is.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../client.server";
import { carriers, invoiceDetails, invoices, reconciliations, users } from "../../schema";
import { loadCurrentUser } from "../../../app/modules/auth/current-user.server";
import { bulkUpdate } from "../../../app/modules/reconciliation/bulk.server";
import { DEMO_INVOICE_NUMBERS } from "./index";

export const DEMO_DISPUTE_NOTE = "Manual handling was not booked for this consignment: please credit the surcharge.";

export async function seedReconciliationStates(db: Db): Promise<{ disputed: number | null }> {
  const [already] = await db.select({ id: reconciliations.id }).from(reconciliations).where(eq(reconciliations.state, "disputed")).limit(1);
  if (already) return { disputed: null };
  const [adminRow] = await db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
  const admin = adminRow && (await loadCurrentUser(db, adminRow.id));
  if (!admin) return { disputed: null };
  const [line] = await db
    .select({ id: reconciliations.id })
    .from(reconciliations)
    .innerJoin(invoiceDetails, eq(invoiceDetails.id, reconciliations.invoiceDetailId))
    .innerJoin(invoices, eq(invoices.id, invoiceDetails.invoiceId))
    .innerJoin(carriers, eq(carriers.id, invoices.carrierId))
    .where(and(eq(invoices.invoiceNumber, DEMO_INVOICE_NUMBERS.auspost), eq(carriers.code, "auspost"), eq(reconciliations.state, "reconciling")))
    // the surcharge line first, then by line
    .orderBy(sql`'surcharge' = any(${reconciliations.reasonCategories}) desc`, invoiceDetails.lineNumber)
    .limit(1);
  if (!line) return { disputed: null };
  await bulkUpdate(db, admin, "dispute", { ids: [line.id], note: DEMO_DISPUTE_NOTE });
  return { disputed: line.id };
}
