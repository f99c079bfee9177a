/**
 * A dispute tells the carrier (issue 19 item 3): after a dispute commits, the disputed lines go
 * with their evidence (rated buy costs and invoiced costs by category, dead and charge weights,
 * zones, consignment and invoice numbers, the note) to the carrier's support address, one e-mail
 * per address, through the house mailer. The address: the consignment's carrier account's
 * support_email, else the account the line was billed to (its account number with that carrier),
 * else the carrier's default e-mail. A line with none of them is reported as not e-mailed.
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";
import { groupBy } from "../../utils/group-by";
import type { Mailer } from "../mail/mailer.server";

export interface DisputeMailOutcome {
  /** one per address: who was written to, about which reconciliations */
  sent: Array<{ to: string; ids: number[] }>;
  /** reconciliations whose carrier has no support address: nobody was told */
  not_emailed: number[];
}

interface Evidence {
  id: number;
  carrier_name: string | null;
  consignment_number: string | null;
  invoice_number: string | null;
  invoice_from_zone: string | null;
  invoice_to_zone: string | null;
  invoice_dead_weight: string | null;
  invoice_charge_weight: string | null;
  rating_detail: { from_zone?: string | null; to_zone?: string | null; dead_weight?: number; charge_weight?: number } | null;
  categories: Array<{ category: string; rated: number; invoiced: number; difference: number }>;
  rated_buy: string;
  invoiced: string;
  discrepancy_amount: string;
  to: string | null;
  costs: Array<{ category: string; description: string; amount: string }> | null;
}

const money = (cents: number) => `${cents < 0 ? "-" : ""}$${(Math.abs(cents) / 100).toFixed(2)}`;
const or = (v: unknown) => (v == null || v === "" ? "—" : String(v));

/** The evidence of the disputed lines, each with the address it goes to. */
async function evidenceOf(db: DbOrTx, ids: number[]): Promise<Evidence[]> {
  if (!ids.length) return [];
  return rowsOf<Evidence>(
    await db.execute(sql`
      select r.id, ca.name as carrier_name, d.consignment_number, i.invoice_number,
        d.sender_zone as invoice_from_zone, d.receiver_zone as invoice_to_zone,
        d.total_weight_in_uom::text as invoice_dead_weight, d.total_charge_weight::text as invoice_charge_weight,
        c.rating_detail, r.categories, r.rated_buy::text, r.invoiced::text, r.discrepancy_amount::text,
        coalesce(nullif(trim(ka.support_email), ''), nullif(trim(la.support_email), ''), nullif(trim(ca.default_email), '')) as "to",
        (select json_agg(json_build_object('category', k.category, 'description', k.description, 'amount', k.amount::text) order by k.id)
           from invoice_costs k where k.invoice_detail_id = d.id) as costs
      from reconciliations r
      join invoice_details d on d.id = r.invoice_detail_id
      join invoices i on i.id = d.invoice_id
      left join carriers ca on ca.id = coalesce(r.carrier_id, d.carrier_id)
      left join consignments c on c.id = r.consignment_id
      left join carrier_accounts ka on ka.id = c.carrier_account_id
      left join lateral (
        select a.support_email from carrier_accounts a
        where a.carrier_id = ca.id and a.account_number = d.account_number and nullif(trim(a.support_email), '') is not null
        order by a.id limit 1
      ) la on true
      where r.id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by r.id`),
  );
}

/** The text of one line's evidence. */
export function evidenceText(e: Evidence, note: string): string {
  const rd = e.rating_detail ?? {};
  const lines = [
    `Consignment ${or(e.consignment_number)} on invoice ${or(e.invoice_number)}`,
    `  Zones: invoiced ${or(e.invoice_from_zone)} to ${or(e.invoice_to_zone)}; rated ${or(rd.from_zone)} to ${or(rd.to_zone)}`,
    `  Dead weight: invoiced ${or(e.invoice_dead_weight)}; rated ${or(rd.dead_weight)}`,
    `  Charge weight: invoiced ${or(e.invoice_charge_weight)}; rated ${or(rd.charge_weight)}`,
    `  Costs by category (rated buy / invoiced / difference):`,
    ...(e.categories.length ? e.categories.map((c) => `    ${c.category}: ${money(c.rated)} / ${money(c.invoiced)} / ${money(c.difference)}`) : ["    none"]),
    `  Invoice cost lines:`,
    ...(e.costs?.length ? e.costs.map((c) => `    ${c.category} ${c.description}: $${c.amount}`) : ["    none"]),
    `  Total: rated buy $${e.rated_buy}, invoiced $${e.invoiced}, discrepancy $${e.discrepancy_amount}`,
    `  Note: ${note}`,
  ];
  return lines.join("\n");
}

/** Sends the disputes of `ids`, one e-mail per support address. */
export async function sendDisputeMails(db: DbOrTx, mailer: Mailer, ids: number[], note: string): Promise<DisputeMailOutcome> {
  const evidence = await evidenceOf(db, ids);
  const outcome: DisputeMailOutcome = { sent: [], not_emailed: [] };
  for (const e of evidence) if (!e.to) outcome.not_emailed.push(Number(e.id));
  // (a copy of the address's list per line was quadratic: a dispute of thousands of one carrier's lines)
  const byAddress = groupBy(
    evidence.filter((e) => e.to),
    (e) => e.to!.toLowerCase(),
  );
  for (const [to, lines] of byAddress) {
    const carrier = lines[0]!.carrier_name ?? "carrier";
    const numbers = [...new Set(lines.map((l) => l.invoice_number).filter(Boolean))].join(", ");
    await mailer.send({
      to,
      subject: `Disputed charges on ${carrier} invoice ${numbers || "(no number)"}`,
      text: [
        `Hello ${carrier},`,
        "",
        `We dispute the charges on ${lines.length} consignment${lines.length === 1 ? "" : "s"} below: what you invoiced differs from what we rated for them.`,
        "",
        ...lines.map((l) => evidenceText(l, note)).flatMap((t) => [t, ""]),
        "Please reply with a credit or the reason for the charge.",
      ].join("\n"),
    });
    outcome.sent.push({ to, ids: lines.map((l) => Number(l.id)) });
  }
  return outcome;
}
