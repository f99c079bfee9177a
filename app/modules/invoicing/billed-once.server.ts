/**
 * A consignment's charge of a cost category is billed to its customer once (issue 29 finding 1,
 * decision 021). What a receivable line bills is written to billed_charges, unique per
 * (consignment, category) over the rows that are not rebills; invoicing asks here first, so a
 * person is refused by name, and the unique index settles what two runs at once would both bill.
 * Billing a charge again is a rebill: an invoice admin's explicit choice, with a note, recorded.
 */
import { and, eq, sql } from "drizzle-orm";
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

/**
 * The names a line's consignment goes by (decision 021): ours when the
 * line is matched, and the carrier's consignment number, both the consignment's own and the line's.
 * A charge is claimed under every name, so a charge billed while its line was unmatched (under
 * the carrier's number) is found when a matched line of the same consignment comes to be billed,
 * and the other way round.
 */
export function consignmentKeysOf(d: { consignmentId: number | null; carrierId: number | null; consignmentNumber: string | null }, own: { carrierId: number | null; consignmentNumber: string | null } | null): string[] {
  const keys = new Set<string>();
  if (d.consignmentId != null) keys.add(`c${d.consignmentId}`);
  for (const n of [own, d]) if (n?.consignmentNumber) keys.add(`n${n.carrierId ?? ""}:${n.consignmentNumber.toUpperCase()}`);
  return [...keys];
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
  /** every name of the consignment (consignmentKeysOf) */
  keys: string[];
  category: string;
}

/** The charges of the lines to bill. */
export function chargesOf(lines: Array<{ lineId: number; consignmentNumber: string | null; keys: string[]; sells: Array<{ category: string; amount: number }> }>): Charge[] {
  return lines.flatMap((l) => (l.keys.length === 0 ? [] : chargedCategories(l.sells).map((category) => ({ lineId: l.lineId, consignment: l.consignmentNumber ?? l.keys[0]!, keys: l.keys, category }))));
}

const pairKey = (key: string, category: string) => `${key}|${category}`;
const pairsOf = (c: { keys: string[]; category: string }) => c.keys.map((k) => pairKey(k, c.category));

/** The customer invoice that bills `charge` already under any of its names, from billedAlready's answer. */
export const billedOn = (billed: Map<string, string>, charge: { keys: string[]; category: string }): string | undefined =>
  pairsOf(charge)
    .map((p) => billed.get(p))
    .find((n) => n !== undefined);

/** Of `charges`, those a customer invoice bills already (not counting rebills): the invoice's number by (name, category). */
export async function billedAlready(db: DbOrTx, charges: Array<{ keys: string[]; category: string }>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!charges.length) return out;
  const wanted = [...new Map(charges.flatMap((c) => c.keys.map((k) => [pairKey(k, c.category), { k, c: c.category }] as const))).values()];
  const rows = rowsOf<{ k: string; c: string; n: string | null }>(
    await db.execute(sql`
      select b.consignment_key as k, b.category as c, i.invoice_number as n
      from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as w(k text, c text)
      join billed_charges b on b.consignment_key = w.k and b.category = w.c and not b.rebill
      join invoice_details d on d.id = b.invoice_detail_id
      join invoices i on i.id = d.invoice_id`),
  );
  for (const r of rows) out.set(pairKey(r.k, r.c), r.n ?? "(being numbered)");
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
    const pairs = pairsOf(c);
    const invoice = billedOn(billed, c);
    const other = pairs.map((p) => firstLine.get(p)).find((line) => line !== undefined && line !== c.lineId);
    if (invoice) out.push({ lineId: c.lineId, message: BILLED_MESSAGES.alreadyBilled(c.consignment, c.category, invoice) });
    else if (other !== undefined) out.push({ lineId: c.lineId, message: BILLED_MESSAGES.chosenTwice(c.consignment, c.category) });
    else for (const p of pairs) firstLine.set(p, c.lineId);
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
  // one row per name of each charge, in one order for every run, so two runs claiming the same
  // charges queue on the unique index instead of deadlocking
  const names = rows
    .flatMap((r) => r.keys.map((key) => ({ key, category: r.category, detailId: r.detailId })))
    .sort((a, b) => (a.key === b.key ? a.category.localeCompare(b.category) : a.key.localeCompare(b.key)));
  // the rows as one JSON parameter, inserted in the order above (n): 4 parameters a name
  // through drizzle cost the invoicing run a second of CPU (bench/invoicing.ts)
  const got = rowsOf<{ detailId: number; key: string; category: string }>(
    await tx.execute(sql`
      insert into billed_charges (consignment_key, category, invoice_detail_id, created_by_id)
      select x.key, x.category, x.detail, ${rebill?.userId ?? null}::int
      from json_to_recordset(${JSON.stringify(names.map((r, n) => ({ key: r.key, category: r.category, detail: r.detailId, n })))}::json) as x(key text, category text, detail int, n int)
      order by x.n
      on conflict (consignment_key, category) where not rebill do nothing
      returning invoice_detail_id as "detailId", consignment_key as key, category`),
  );
  const claimed = new Set(got.map((g) => `${g.detailId}|${g.key}|${g.category}`));
  // a charge is taken when any of its names is: another invoice bills it under that name
  const taken = rows.filter((r) => r.keys.some((key) => !claimed.has(`${r.detailId}|${key}|${r.category}`)));
  const lines = [...new Set(taken.map((t) => t.lineId))];
  if (!taken.length) return { taken: [], rebilled: [] };
  if (!rebill) return { taken: lines, rebilled: [] };
  // a rebill holds none of the names as the first billing: the names it did get go back, and every name is written as a rebill
  for (const r of taken)
    await tx.delete(billedCharges).where(and(eq(billedCharges.invoiceDetailId, r.detailId), eq(billedCharges.category, r.category), eq(billedCharges.rebill, false)));
  await tx.insert(billedCharges).values(taken.flatMap((r) => r.keys.map((key) => ({ consignmentKey: key, category: r.category, invoiceDetailId: r.detailId, rebill: true, note: rebill.note, createdById: rebill.userId }))));
  return { taken: [], rebilled: lines };
}
