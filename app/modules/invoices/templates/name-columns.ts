/**
 * NameColumns: gives the columns names that later steps and MapFields use (docs/decisions/019
 * "Templates").
 * - ROW_INDEX: the row numbered `row` holds the names; it and every row before it are dropped (a
 *   carrier's preamble). A blank or repeated header cell keeps its column letter. Names are
 *   trimmed and compared without case by later steps' patterns, but kept as written.
 * - MAPPINGS: each `column` (a letter, or a name from before) is renamed `name`; others stay.
 * A row that holds a name already taken keeps the first; a renamed key replaces the old one.
 */
import { z } from "zod";
import type { Row, Rows } from "./rows";

export const nameColumnsOptions = z.discriminatedUnion("action", [
  z.object({ action: z.literal("ROW_INDEX"), row: z.number().int().min(1, "Row numbers start at 1") }),
  z.object({
    action: z.literal("MAPPINGS"),
    mappings: z.array(z.object({ column: z.string().trim().min(1, "Column is required"), name: z.string().trim().min(1, "Name is required") })).min(1, "Give at least one mapping"),
  }),
]);
export type NameColumnsOptions = z.infer<typeof nameColumnsOptions>;

const rename = (r: Row, names: Map<string, string>): Row => {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.values)) {
    const to = names.get(k) ?? k;
    if (!(to in values) || names.has(k)) values[to] = v;
  }
  return { ...r, values };
};

export async function* nameColumns(rows: Rows, o: NameColumnsOptions): Rows {
  if (o.action === "MAPPINGS") {
    const names = new Map(o.mappings.map((m) => [m.column, m.name]));
    for await (const r of rows) yield rename(r, names);
    return;
  }
  let names: Map<string, string> | null = null;
  for await (const r of rows) {
    if (names) {
      yield rename(r, names);
      continue;
    }
    if (r.row < o.row) continue;
    // the header row is the first row at or after `row` (a blank row at `row` was never read)
    names = new Map();
    const taken = new Set<string>();
    for (const [k, v] of Object.entries(r.values)) {
      const name = v.trim();
      if (name && !taken.has(name.toLowerCase())) {
        names.set(k, name);
        taken.add(name.toLowerCase());
      }
    }
  }
}
