/**
 * The label records of consignments: one SSCC per label on each item line (quantity times the
 * item type's label count) and the consignment's number of labels. Printing makes them the first
 * time; despatch, a merge and a save of a printed consignment make what a line still lacks, so a
 * despatched consignment can always be reprinted (issue 13 part 4 item 2).
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentItems, consignments, itemTypes } from "../../../db/schema";
import { allocateSsccs } from "./numbers.server";
import { labelCount } from "./format";

/**
 * Gives every line of these consignments the SSCCs it still lacks, from each consignment's carrier
 * account (one allocation per account). The caller holds the consignment rows locked. Answers the
 * number of labels of each consignment, written to it too unless the caller writes it with its own
 * update of the row (`writeTotals: false`).
 */
export async function completeLabelRecords(tx: DbOrTx, list: Array<{ id: number; carrierAccountId: number }>, options: { writeTotals?: boolean } = {}): Promise<Map<number, number>> {
  const totals = new Map<number, number>(list.map((c) => [c.id, 0]));
  if (!list.length) return totals;
  const accountOf = new Map(list.map((c) => [c.id, c.carrierAccountId]));
  const lines = await tx
    .select({ id: consignmentItems.id, consignmentId: consignmentItems.consignmentId, quantity: consignmentItems.quantity, ssccs: consignmentItems.ssccs, typeLabels: itemTypes.labels })
    .from(consignmentItems)
    .leftJoin(itemTypes, eq(itemTypes.id, consignmentItems.itemTypeId))
    .where(inArray(consignmentItems.consignmentId, [...accountOf.keys()]))
    .orderBy(asc(consignmentItems.consignmentId), asc(consignmentItems.position), asc(consignmentItems.id));

  const short: Array<{ id: number; have: string[]; missing: number; accountId: number }> = [];
  for (const line of lines) {
    const needed = labelCount(line.quantity, line.typeLabels);
    totals.set(line.consignmentId, totals.get(line.consignmentId)! + needed);
    if (line.ssccs.length < needed) short.push({ id: line.id, have: line.ssccs, missing: needed - line.ssccs.length, accountId: accountOf.get(line.consignmentId)! });
  }
  const filled: Array<{ id: number; ssccs: string[] }> = [];
  // accounts in id order, as lockForNumbering takes them
  for (const accountId of [...new Set(short.map((s) => s.accountId))].sort((a, b) => a - b)) {
    const mine = short.filter((s) => s.accountId === accountId);
    const fresh = await allocateSsccs(tx, accountId, mine.reduce((n, s) => n + s.missing, 0));
    let next = 0;
    for (const s of mine) {
      filled.push({ id: s.id, ssccs: [...s.have, ...fresh.slice(next, next + s.missing)] });
      next += s.missing;
    }
  }
  // a despatch of thousands of unprinted consignments: one statement per thousand lines
  for (let i = 0; i < filled.length; i += 1000) {
    const values = sql.join(
      filled.slice(i, i + 1000).map((f) => sql`(${f.id}::int, ${JSON.stringify(f.ssccs)}::jsonb)`),
      sql`, `,
    );
    await tx.execute(sql`update ${consignmentItems} set ssccs = v.ssccs from (values ${values}) as v(id, ssccs) where ${consignmentItems.id} = v.id`);
  }
  if (options.writeTotals !== false) {
    for (const [id, total] of totals) await tx.update(consignments).set({ numberOfLabels: total }).where(eq(consignments.id, id));
  }
  return totals;
}
