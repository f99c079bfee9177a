/**
 * GroupBy: makes one row of the consecutive rows that share the `by` columns (docs/decisions/019
 * "Templates"). Carriers list a consignment's charges together, so only the group being read is
 * held; the same key met again later starts a new group (MapFields then makes two lines, and the
 * import keeps both). The group's row is its first row, with:
 * - SUM: each of `columns` the sum of the group's amounts (currency signs and thousands commas
 *   read; a blank counts 0; text that is not an amount marks the row), written with 2 decimals.
 * - JOIN: each of `columns` the group's distinct non-blank texts joined by `separator` (", ").
 */
import { z } from "zod";
import { problemAt, type Row, type Rows, type StepPlace } from "./rows";
import { parseAmount } from "./values";

const columns = z.array(z.string().trim().min(1)).min(1, "Give at least one column");

export const groupByOptions = z.object({
  action: z.enum(["SUM", "JOIN"]),
  by: columns,
  columns,
  separator: z.string().optional(),
});
export type GroupByOptions = z.infer<typeof groupByOptions>;

export async function* groupBy(rows: Rows, o: GroupByOptions, place: StepPlace): Rows {
  let group: Row[] = [];
  let key: string | null = null;
  for await (const r of rows) {
    if (r.problem) {
      if (group.length) yield merge(group, o, place);
      group = [];
      key = null;
      yield r;
      continue;
    }
    const k = JSON.stringify(o.by.map((c) => (r.values[c] ?? "").trim().toLowerCase()));
    if (k !== key && group.length) {
      yield merge(group, o, place);
      group = [];
    }
    key = k;
    group.push(r);
  }
  if (group.length) yield merge(group, o, place);
}

function merge(group: Row[], o: GroupByOptions, place: StepPlace): Row {
  const first = group[0]!;
  const values = { ...first.values };
  for (const c of o.columns) {
    if (o.action === "JOIN") {
      const seen = [...new Set(group.map((r) => (r.values[c] ?? "").trim()).filter(Boolean))];
      values[c] = seen.join(o.separator ?? ", ");
      continue;
    }
    let sum = 0;
    for (const r of group) {
      const text = (r.values[c] ?? "").trim();
      if (text === "") continue;
      const n = parseAmount(text);
      if (n === null) return { ...first, values, problem: problemAt(place, `'${text}' in column ${c} (row ${r.row}) is not an amount`) };
      sum += n;
    }
    values[c] = (Math.round(sum * 100) / 100).toFixed(2);
  }
  return { ...first, values };
}
