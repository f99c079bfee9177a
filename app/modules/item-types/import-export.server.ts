/**
 * Item type CSV (spec 2 sections 3 and 5): export, the import template and the import, which adds
 * each good row and reports every skipped line with its reasons (a row is stored whole or not at all).
 */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, itemTypes } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { parseCsv, toCsv } from "../../utils/csv.server";
import { AppError } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { CSV_COLUMNS, csvRowToInput, itemTypeSchema, itemTypeToCsvRow, TEMPLATE_ROW } from "./item-types";
import { itemTypeCustomer, itemTypesOf, nextSequence, toColumns } from "./item-types.server";

/** Rows one import takes (the 10 MB body cap comes first); more is refused whole. */
export const MAX_IMPORT_ROWS = 10_000;

export interface ImportReport {
  errors: Array<{ line: number; errors: string[] }>;
  successes: Array<{ line: number; id: number; description: string; name: string }>;
}

/**
 * The file's rows, each checked by the item type schema (Description and Type mandatory, Type one
 * of the four, defaults metric / plain / 1.0 / 1 label). Unknown or headerless columns are ignored.
 */
export async function importItemTypes(db: DbOrTx, user: CurrentUser, customerId: number, text: string): Promise<ImportReport> {
  await itemTypeCustomer(db, user, customerId, true);
  const { headers, rows } = await parseCsv(text);
  const missing = ["description", "type"].filter((c) => !headers.map((h) => h.replace(/\s+/g, "_")).includes(c));
  if (missing.length) {
    const message = `The file needs the columns ${CSV_COLUMNS.join(", ")} (description and type are mandatory; missing: ${missing.join(", ")})`;
    throw new AppError("invalid", message, { file: [message] });
  }
  if (rows.length > MAX_IMPORT_ROWS) {
    const message = `The file has more than ${MAX_IMPORT_ROWS} rows; split it.`;
    throw new AppError("invalid", message, { file: [message] });
  }
  const report: ImportReport = { errors: [], successes: [] };
  const good: Array<{ line: number; values: ReturnType<typeof toColumns> }> = [];
  for (const row of rows) {
    const result = itemTypeSchema.safeParse(csvRowToInput(row.values));
    if (result.success) good.push({ line: row.line, values: toColumns(result.data) });
    else report.errors.push({ line: row.line, errors: Object.values(fieldErrorsFrom(result.error)).flat() });
  }
  if (!good.length) return report;
  // one transaction: the sequences continue from the last item type, and a second import at the
  // same time waits for this one instead of taking the same numbers
  const inserted = await db.transaction(async (tx) => {
    // the customer row stands for its list (which may have no row yet to lock)
    await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for("update");
    const start = await nextSequence(tx, customerId);
    return tx
      .insert(itemTypes)
      .values(good.map((g, i) => ({ customerId, ...g.values, sequence: start + i })))
      .returning({ id: itemTypes.id, description: itemTypes.description, name: itemTypes.name });
  });
  report.successes = inserted.map((r, i) => ({ line: good[i]!.line, ...r }));
  return report;
}

/** Export: the customer's item types in their order, spec 2's columns, formulas neutralised. */
export async function exportItemTypes(db: DbOrTx, user: CurrentUser, customerId: number): Promise<string> {
  await itemTypeCustomer(db, user, customerId);
  return toCsv([...CSV_COLUMNS], (await itemTypesOf(db, customerId)).map(itemTypeToCsvRow));
}

/** Import Template: the header and one example row. */
export function itemTypeTemplate(): Promise<string> {
  return toCsv([...CSV_COLUMNS], [TEMPLATE_ROW]);
}

/** The CSV as a download. */
export function csvDownload(text: string, filename: string): Response {
  return new Response(text, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"` } });
}
