/**
 * JoinRows: makes one row of a record the carrier spread over several lines (docs/decisions/019
 * "Templates"). Either every `size` consecutive rows are one record, or (with `continuation`) a
 * row whose column matches the pattern belongs to the row before it. The record's row is its
 * first row; the cells of its k-th row (k from 2) are added under their key with "_k" after it
 * (column B of the second line is B_2). A continuation row before any record is kept as it is.
 */
import { z } from "zod";
import { patternOf, type Row, type Rows } from "./rows";

export const joinRowsOptions = z
  .object({
    size: z.number().int().min(2, "Join at least 2 rows").max(50).optional(),
    continuation: z.object({ column: z.string().trim().min(1, "Column is required"), pattern: z.string().min(1, "Pattern is required") }).optional(),
  })
  .refine((o) => (o.size === undefined) !== (o.continuation === undefined), "Give either a number of rows or a continuation match");
export type JoinRowsOptions = z.infer<typeof joinRowsOptions>;

const join = (record: Row[]): Row => {
  const values = { ...record[0]!.values };
  record.slice(1).forEach((r, i) => {
    for (const [k, v] of Object.entries(r.values)) values[`${k}_${i + 2}`] = v;
  });
  const problem = record.find((r) => r.problem)?.problem;
  return problem ? { ...record[0]!, values, problem } : { ...record[0]!, values };
};

export async function* joinRows(rows: Rows, o: JoinRowsOptions): Rows {
  let record: Row[] = [];
  const re = o.continuation ? patternOf(o.continuation.pattern) : null;
  for await (const r of rows) {
    if (o.size) {
      record.push(r);
      if (record.length === o.size) {
        yield join(record);
        record = [];
      }
      continue;
    }
    const continues = re!.test(r.values[o.continuation!.column] ?? "");
    if (continues && record.length) {
      record.push(r);
      continue;
    }
    if (record.length) yield join(record);
    record = [r];
  }
  // a last record shorter than `size` is still joined: the file ended early
  if (record.length) yield join(record);
}
