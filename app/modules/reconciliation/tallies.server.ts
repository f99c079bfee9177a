/**
 * The reconciliations list's tallies ledger (migration 0023): statement triggers append each
 * statement's change to the counts and totals per customer, carrier and state; this folds the
 * ledger into one row each, nightly with the cleanup, so reading it stays a few rows' work.
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";

/** Folds the ledger; answers how many rows it saved. */
export async function compactReconciliationTallies(db: DbOrTx): Promise<number> {
  const [row] = rowsOf<{ folded: number }>(await db.execute(sql`select compact_reconciliation_tallies() as folded`));
  return Number(row?.folded ?? 0);
}
