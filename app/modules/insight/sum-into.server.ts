/**
 * One rollup table's rows summed from another's (the monthly from the daily, the brief from the
 * detailed, the audit's per invoice and carrier from its per site, service and lane): shared by the
 * consignments' rollup and the audit's, so every coarser table is written by the same statement.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";

/**
 * Rows of `into` summed from the rows of `from` that `where` picks (a condition on "d"), by `key`,
 * each of `measures` summed; by month when `monthly` (day becomes the month's first).
 */
export async function sumInto(tx: DbOrTx, into: string, from: string, key: string[], measures: string[], where: SQL, monthly = false) {
  const cols = key.map((k) => (k === "day" && monthly ? "date_trunc('month', d.day)::date" : `d.${k}`));
  await tx.execute(sql`
    insert into ${sql.raw(into)} (${sql.raw([...key, ...measures].join(", "))})
    select ${sql.raw([...cols, ...measures.map((m) => `sum(d.${m})`)].join(", "))}
    from ${sql.raw(from)} d where ${where}
    group by ${sql.raw(cols.map((_, i) => i + 1).join(", "))}`);
}
