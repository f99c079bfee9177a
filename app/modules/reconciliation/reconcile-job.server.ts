/**
 * The reconcile job as a whole (issue 19 point 1): compare the lines, then re-rate the ones the
 * comparison marked 'loading' (the invoice's weight, zones or service differ), so no line is left
 * showing "Loading..." until someone presses Re Run.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoiceDetails, reconciliations } from "../../../db/schema";
import { reconcileLines, type ReconcileResult } from "./reconcile.server";
import { rerateLines } from "./rerate.server";

/** the comparison's share of the progress bar; re-rating is per line and takes the rest */
const COMPARE_SHARE = 0.8;
/** lines re-rated per call: each call reads its facts in a few queries and writes in one, so fewer calls, fewer round trips */
const RERATE_CHUNK = 200;

export async function reconcileAndRerate(
  db: DbOrTx,
  target: { invoiceIds?: number[]; invoiceDetailIds?: number[] },
  progress: (pct: number, message: string) => Promise<void> = async () => {},
): Promise<ReconcileResult> {
  const result = await reconcileLines(db, target, (pct, message) => progress(Math.round(pct * COMPARE_SHARE), message));
  const scope = target.invoiceDetailIds?.length
    ? inArray(invoiceDetails.id, target.invoiceDetailIds)
    : target.invoiceIds?.length
      ? inArray(invoiceDetails.invoiceId, target.invoiceIds)
      : null;
  if (!scope) return result;
  const waiting = await db
    .select({ id: reconciliations.id })
    .from(reconciliations)
    .innerJoin(invoiceDetails, eq(invoiceDetails.id, reconciliations.invoiceDetailId))
    .where(and(scope, eq(reconciliations.rerateStatus, "loading")))
    .orderBy(reconciliations.id);
  for (let i = 0; i < waiting.length; i += RERATE_CHUNK) {
    const part = waiting.slice(i, i + RERATE_CHUNK);
    await rerateLines(db, part.map((w) => w.id));
    const done = i + part.length;
    await progress(Math.round(COMPARE_SHARE * 100 + ((1 - COMPARE_SHARE) * 100 * done) / waiting.length), `Re-rated ${done} of ${waiting.length} lines`);
  }
  return result;
}
