/**
 * A carrier billing a consignment twice (issue 29 finding 1, decision 021): on import, a line whose
 * carrier and consignment number already stand on another carrier invoice, with the same charges
 * (each category and amount) and total, is marked a possible duplicate of that earlier line; an
 * invoice whose lines are mostly such duplicates is marked a possible duplicate of the invoice
 * most of them repeat. Set-wise, once per imported file: the new lines meet the earlier ones through
 * the (consignment_number, carrier_id) index, and only those pairs have their charges compared.
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";

const charges = (alias: string) =>
  sql.raw(`array(select c.category || ' ' || c.amount::text from invoice_costs c where c.invoice_detail_id = ${alias}.id order by 1)`);

/** Marks the possible duplicates among the lines of `invoiceIds` (just imported), then the invoices. */
export async function markDuplicates(tx: DbOrTx, invoiceIds: number[]): Promise<void> {
  if (!invoiceIds.length) return;
  const ids = sql.join(
    invoiceIds.map((id) => sql`${id}`),
    sql`, `,
  );
  await tx.execute(sql`
    with pair as (
      select distinct on (d.id) d.id, o.id as other_id
      from invoice_details d
      join invoice_details o on o.consignment_number = d.consignment_number and o.carrier_id = d.carrier_id
        and o.id < d.id and o.invoice_id <> d.invoice_id and o.total_cost = d.total_cost
      join invoices oi on oi.id = o.invoice_id and oi.accounting_type = 'payable'
      where d.invoice_id in (${ids}) and d.consignment_number is not null
        and ${charges("d")} = ${charges("o")}
      order by d.id, o.id
    )
    update invoice_details t set duplicate_of_detail_id = pair.other_id from pair where t.id = pair.id`);
  await tx.execute(sql`
    update invoices i set duplicate_of_invoice_id = x.other
    from (
      select d.invoice_id, mode() within group (order by o.invoice_id) as other, count(o.id) as dups, count(*) as lines
      from invoice_details d left join invoice_details o on o.id = d.duplicate_of_detail_id
      where d.invoice_id in (${ids})
      group by d.invoice_id
    ) x
    where i.id = x.invoice_id and x.dups * 2 > x.lines`);
}

/** 'Possible duplicate of invoice NL-…', on the payable list and the invoice page. */
export const possibleDuplicateText = (number: string | null) => `Possible duplicate of invoice ${number ?? "(deleted)"}`;

/** The earlier carrier line a line possibly duplicates: its invoice's number and its line number. */
export async function duplicateOfLine(db: DbOrTx, detailId: number): Promise<{ invoice_id: number; invoice_number: string | null; line_number: number } | null> {
  const rows = rowsOf<{ invoice_id: number; invoice_number: string | null; line_number: number }>(
    await db.execute(sql`select o.invoice_id, i.invoice_number, o.line_number from invoice_details d
      join invoice_details o on o.id = d.duplicate_of_detail_id join invoices i on i.id = o.invoice_id where d.id = ${detailId}`),
  );
  return rows[0] ?? null;
}
