/**
 * DeleteRows: drops header, total and blank-ish rows (docs/decisions/019 "Templates").
 * - ROW_INDEXES: rows by their number in the file (1 is the first); a negative number counts from
 *   the end (-1 is the last row left by the steps before). Only as many rows as the most negative
 *   index are held back, so the step still streams.
 * - COLUMN_MATCH: every row whose column matches the pattern (a case-insensitive regular
 *   expression; "^$" matches a blank cell, and a row without the column reads it as blank).
 */
import { z } from "zod";
import { patternOf, type Row, type Rows } from "./rows";

export const deleteRowsOptions = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("ROW_INDEXES"),
    indexes: z.array(z.number().int().refine((n) => n !== 0, "Row indexes start at 1 (or -1 for the last row)")).min(1, "Give at least one row index"),
  }),
  z.object({
    action: z.literal("COLUMN_MATCH"),
    column: z.string().trim().min(1, "Column is required"),
    pattern: z.string().min(1, "Pattern is required"),
  }),
]);
export type DeleteRowsOptions = z.infer<typeof deleteRowsOptions>;

export async function* deleteRows(rows: Rows, o: DeleteRowsOptions): Rows {
  if (o.action === "COLUMN_MATCH") {
    const re = patternOf(o.pattern);
    for await (const r of rows) if (r.problem || !re.test(r.values[o.column] ?? "")) yield r;
    return;
  }
  const fromStart = new Set(o.indexes.filter((n) => n > 0));
  const fromEnd = new Set(o.indexes.filter((n) => n < 0).map((n) => -n));
  const hold = Math.max(0, ...fromEnd);
  // the last `hold` rows wait here until we know how far from the end they are
  const held: Row[] = [];
  for await (const r of rows) {
    if (fromStart.has(r.row)) continue;
    held.push(r);
    if (held.length > hold) yield held.shift()!;
  }
  held.forEach((r, i) => {
    if (fromEnd.has(held.length - i)) held[i] = undefined as unknown as Row;
  });
  for (const r of held) if (r) yield r;
}
