/**
 * Bulk data for benchmarks, written with SQL so that 100,000 rows take seconds: list-shaped
 * consignments in every state, and copies of a real (API-made) consignment with its items.
 */
import { getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { consignmentItems, consignments, services } from "../db/schema";

/** Inserts `n` consignments for a customer over `days` days ending a week from today, in a spread of states. */
export async function fillConsignments(db: Db, customerId: number, siteIds: number[], n: number, days: number) {
  const svc = await db.select({ id: services.id }).from(services);
  const today = new Date().toISOString().slice(0, 10);
  const serviceList = `array[${svc.map((s) => s.id).join(",")}]::int[]`;
  const siteList = `array[${siteIds.join(",")}]::int[]`;
  for (let start = 0; start < n; start += 20_000) {
    const count = Math.min(20_000, n - start);
    await db.execute(
      sql.raw(`
      insert into consignments (customer_id, site_id, state, return_type, is_quote, consignment_number, reference, despatch_date,
        service_id, labels_printed_at, party_name, item_count, total_weight, total_volume, hazardous, item_references, active)
      select ${customerId},
        (${siteList})[1 + (g % ${siteIds.length})],
        (case when r < 0.62 then 'despatched' when r < 0.70 then 'delivered' when r < 0.80 then 'open' when r < 0.90 then 'despatchable'
              when r < 0.93 then 'despatch_failure' when r < 0.96 then 'cancelled' when r < 0.98 then 'deleted' else 'quote' end),
        case when g % 17 = 0 then 'return' end,
        r >= 0.98,
        case when r < 0.70 or (r >= 0.85 and r < 0.93) then 'CN' || lpad(g::text, 9, '0') end,
        'PO-' || (g::bigint * 7919 % 1000003),
        date '${today}' + 7 - (g % ${days}),
        case when r < 0.75 or r >= 0.80 then (${serviceList})[1 + (g % ${svc.length})] end,
        case when r < 0.70 or (r >= 0.85 and r < 0.93) then now() end,
        (array['Brisbane Hardware','Perth Outdoor Supplies','Adelaide Office Co','Hobart Marine','Zeta Traders','Mid Co'])[1 + (g % 6)] || ' ' || (g % 997),
        1 + g % 5, (g % 400) + 0.5, (g % 50) / 10.0, g % 23 = 0, 'REF-' || g, r < 0.96 or r >= 0.98
      from (select g, random() as r from generate_series(${start + 1}, ${start + count}) g) s`),
    );
  }
  await db.execute(sql`analyze consignments`);
}

const columnsOf = (table: typeof consignments | typeof consignmentItems, skip: string[]) =>
  Object.values(getTableColumns(table))
    .map((c) => c.name)
    .filter((name) => !skip.includes(name))
    .map((name) => `"${name}"`)
    .join(", ");

/** `n` copies of consignment `id` with its item lines (no number yet): returns their ids. */
export async function cloneConsignment(db: Db, id: number, n: number): Promise<number[]> {
  // the tracking token is unique: each copy gets its own by default
  const cols = columnsOf(consignments, ["id", "public_tracking_token"]);
  const raw = (await db.execute(sql.raw(`insert into consignments (${cols}) select ${cols} from consignments, generate_series(1, ${n}) where id = ${id} returning id`))) as unknown as
    | { rows?: { id: number }[] }
    | { id: number }[];
  const ids = (Array.isArray(raw) ? raw : (raw.rows ?? [])).map((r) => Number(r.id));
  const itemCols = columnsOf(consignmentItems, ["id", "consignment_id"]);
  await db.execute(
    sql.raw(`insert into consignment_items (consignment_id, ${itemCols}) select c.id, ${itemCols.split(", ").map((c) => `i.${c}`).join(", ")}
             from unnest(array[${ids.join(",")}]::int[]) as c(id), consignment_items i where i.consignment_id = ${id}`),
  );
  return ids;
}
