/**
 * A consignment's charge of a cost category is billed to its customer once (issue 29 finding 1,
 * decision 021). What a receivable line bills is written to billed_charges, unique per
 * (consignment, category) over the rows that are not rebills; invoicing asks here first, so a
 * person is refused by name, and the unique index settles what two runs at once would both bill.
 * Billing a charge again is a rebill: an invoice admin's explicit choice, with a note, recorded.
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { billedCharges } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";

export const BILLED_MESSAGES = {
  noteRequired: "A note is required to bill a charge again.",
  alreadyBilled: (consignment: string, category: string, invoice: string) => `Consignment ${consignment}: ${categoryLabel(category)} is already billed on customer invoice ${invoice}.`,
  chosenTwice: (consignment: string, category: string) => `Consignment ${consignment}: ${categoryLabel(category)} is billed by more than one of the lines chosen; choose one.`,
  rebillNote: (note: string) => `Billed again (rebill): ${note}`,
};

export const categoryLabel = (category: string) => (category.charAt(0).toUpperCase() + category.slice(1)).replaceAll("_", " ");

/** Which consignment a line bills: ours when matched, else the carrier's number for it. */
export function consignmentKeyOf(d: { consignmentId: number | null; carrierId: number | null; consignmentNumber: string | null }): string | null {
  if (d.consignmentId != null) return `c${d.consignmentId}`;
  if (!d.consignmentNumber) return null;
  return `n${d.carrierId ?? ""}:${d.consignmentNumber.toUpperCase()}`;
}

/**
 * The categories a line's sell charges: positive amounts other than GST (GST follows the charges;
 * a credit takes money off and bills nothing).
 */
export function chargedCategories(sells: Array<{ category: string; amount: number }>): string[] {
  return [...new Set(sells.filter((s) => s.amount > 0 && s.category !== "gst").map((s) => s.category))];
}

export interface Charge {
  /** the payable line asked for */
  lineId: number;
  consignment: string;
  key: string;
  category: string;
}

/** The charges of the lines to bill. */
export function chargesOf(lines: Array<{ lineId: number; consignmentNumber: string | null; key: string | null; sells: Array<{ category: string; amount: number }> }>): Charge[] {
  return lines.flatMap((l) => (l.key == null ? [] : chargedCategories(l.sells).map((category) => ({ lineId: l.lineId, consignment: l.consignmentNumber ?? l.key!, key: l.key!, category }))));
}

const pairKey = (c: { key: string; category: string }) => `${c.key}|${c.category}`;

/** Of `charges`, those a customer invoice bills already (not counting rebills): the invoice's number by charge. */
export async function billedAlready(db: DbOrTx, charges: Array<{ key: string; category: string }>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!charges.length) return out;
  const wanted = [...new Map(charges.map((c) => [pairKey(c), { k: c.key, c: c.category }])).values()];
  const rows = rowsOf<{ k: string; c: string; n: string | null }>(
    await db.execute(sql`
      select b.consignment_key as k, b.category as c, i.invoice_number as n
      from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as w(k text, c text)
      join billed_charges b on b.consignment_key = w.k and b.category = w.c and not b.rebill
      join invoice_details d on d.id = b.invoice_detail_id
      join invoices i on i.id = d.invoice_id`),
  );
  for (const r of rows) out.set(pairKey({ key: r.k, category: r.c }), r.n ?? "(being numbered)");
  return out;
}

/**
 * Why each of `charges` may not be billed now: billed already, or asked for by two of the lines
 * (the first keeps it). A rebill lets the billed ones through; two lines asking at once stay refused.
 */
export async function refusals(db: DbOrTx, charges: Charge[], rebill: boolean): Promise<Array<{ lineId: number; message: string }>> {
  const billed = rebill ? new Map<string, string>() : await billedAlready(db, charges);
  const firstLine = new Map<string, number>();
  const out: Array<{ lineId: number; message: string }> = [];
  for (const c of charges) {
    const k = pairKey(c);
    const invoice = billed.get(k);
    if (invoice) out.push({ lineId: c.lineId, message: BILLED_MESSAGES.alreadyBilled(c.consignment, c.category, invoice) });
    else if ((firstLine.get(k) ?? c.lineId) !== c.lineId) out.push({ lineId: c.lineId, message: BILLED_MESSAGES.chosenTwice(c.consignment, c.category) });
    else firstLine.set(k, c.lineId);
  }
  return out;
}

/**
 * Claims the charges of receivable lines inside the invoice's transaction; answers the payable
 * lines whose charge another line holds (`taken`; none when `rebill`: those are written as
 * rebills with the note, `rebilled`). The unique index makes a concurrent run's claim wait for
 * this one's commit and then find it taken.
 */
export async function claimCharges(tx: DbOrTx, rows: Array<Charge & { detailId: number }>, rebill: { note: string; userId: number | null } | null): Promise<{ taken: number[]; rebilled: number[] }> {
  if (!rows.length) return { taken: [], rebilled: [] };
  // in one order for every run, so two runs claiming the same charges queue instead of deadlocking
  rows = [...rows].sort((a, b) => (a.key === b.key ? a.category.localeCompare(b.category) : a.key.localeCompare(b.key)));
  const got = await tx
    .insert(billedCharges)
    .values(rows.map((r) => ({ consignmentKey: r.key, category: r.category, invoiceDetailId: r.detailId, createdById: rebill?.userId ?? null })))
    .onConflictDoNothing({ target: [billedCharges.consignmentKey, billedCharges.category], where: sql`not rebill` })
    .returning({ detailId: billedCharges.invoiceDetailId, key: billedCharges.consignmentKey, category: billedCharges.category });
  const claimed = new Set(got.map((g) => `${g.detailId}|${g.key}|${g.category}`));
  const taken = rows.filter((r) => !claimed.has(`${r.detailId}|${r.key}|${r.category}`));
  const lines = [...new Set(taken.map((t) => t.lineId))];
  if (!taken.length) return { taken: [], rebilled: [] };
  if (!rebill) return { taken: lines, rebilled: [] };
  await tx.insert(billedCharges).values(taken.map((r) => ({ consignmentKey: r.key, category: r.category, invoiceDetailId: r.detailId, rebill: true, note: rebill.note, createdById: rebill.userId })));
  return { taken: [], rebilled: lines };
}
