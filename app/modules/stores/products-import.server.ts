/**
 * Store products CSV import (spec 2 "Store products": Import): sku, name, item type (by its
 * description), length, width, height, weight. A product is updated by its SKU (case aside) or
 * added; every skipped line is reported with its reason (the first 100 listed).
 */
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { itemTypes } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { parseCsv } from "../../utils/csv.server";
import { AppError } from "../../utils/errors";
import { rowsOf } from "../../utils/sql-rows";
import { UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";
import { PRODUCT_CSV_COLUMNS, PRODUCT_REQUIRED_COLUMNS, productCsvSchema } from "./stores";
import { requireCustomerStore } from "./stores.server";

/** Lines one import takes (the 10 MB upload limit comes first); more is refused whole. */
export const MAX_PRODUCT_ROWS = 50_000;
/** Rows per insert statement (7 parameters each, well under PostgreSQL's 65,535). */
const CHUNK = 1000;

export interface ProductsImportReport {
  created: number;
  updated: number;
  skipped: Array<{ line: number; errors: string[] }>;
  skipped_total: number;
}

const refuse = (message: string) => new AppError("invalid", message, { file: [message] });

/** POST /api/customers/{id}/store/products/import and the products screen's Import. */
export async function importStoreProducts(db: DbOrTx, user: CurrentUser, customerId: number, text: string, storeId?: number | null): Promise<ProductsImportReport> {
  const store = await requireCustomerStore(db, user, customerId, storeId);
  const { headers, rows } = await parseCsv(text);
  // "item type" and "Item_Type" name the same column
  const names = headers.map((h) => h.replace(/\s+/g, "_"));
  const missing = PRODUCT_REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length) throw refuse(`The file needs the columns ${PRODUCT_CSV_COLUMNS.join(", ")} (missing: ${missing.join(", ")})`);
  if (rows.length > MAX_PRODUCT_ROWS) throw refuse(`The file has more than ${MAX_PRODUCT_ROWS} lines; split it.`);

  const types = await db.select({ id: itemTypes.id, description: itemTypes.description }).from(itemTypes).where(eq(itemTypes.customerId, customerId));
  // descriptions are not unique: the first item type of a description is the one named
  const typeByDescription = new Map<string, number>();
  for (const t of types.sort((a, b) => a.id - b.id)) if (!typeByDescription.has(t.description.toLowerCase())) typeByDescription.set(t.description.toLowerCase(), t.id);

  const report: ProductsImportReport = { created: 0, updated: 0, skipped: [], skipped_total: 0 };
  const skip = (line: number, errors: string[]) => {
    report.skipped_total += 1;
    if (report.skipped.length < UPLOAD_ERRORS_SHOWN) report.skipped.push({ line, errors });
  };
  const seen = new Map<string, number>();
  const good: Array<{ sku: string; name: string; itemTypeId: number | null; length: number | null; width: number | null; height: number | null; weight: number | null }> = [];
  for (const row of rows) {
    const values = Object.fromEntries(Object.entries(row.values).map(([k, v]) => [k.replace(/\s+/g, "_"), v]));
    const parsed = productCsvSchema.safeParse(values);
    if (!parsed.success) {
      skip(row.line, parsed.error.issues.map((i) => i.message));
      continue;
    }
    const p = parsed.data;
    const errors: string[] = [];
    const itemTypeId = p.item_type ? (typeByDescription.get(p.item_type.toLowerCase()) ?? null) : null;
    if (p.item_type && itemTypeId === null) errors.push(`Item type "${p.item_type}" is not one of this customer's item types`);
    const earlier = seen.get(p.sku.toLowerCase());
    // one statement cannot update a product twice: the first line of a SKU counts
    if (earlier) errors.push(`SKU ${p.sku} is already on line ${earlier}`);
    if (errors.length) {
      skip(row.line, errors);
      continue;
    }
    seen.set(p.sku.toLowerCase(), row.line);
    good.push({ sku: p.sku, name: p.name, itemTypeId, length: p.length, width: p.width, height: p.height, weight: p.weight });
  }

  // one transaction: an import is applied whole (its good lines) or, on failure, not at all
  await db.transaction(async (tx) => {
    for (let i = 0; i < good.length; i += CHUNK) {
      const values = sql.join(
        good.slice(i, i + CHUNK).map((p) => sql`(${store.id}, ${p.sku}, ${p.name}, ${p.itemTypeId}::int, ${p.length}::numeric, ${p.width}::numeric, ${p.height}::numeric, ${p.weight}::numeric)`),
        sql`, `,
      );
      // the conflict target is the expression index store_products_store_sku_key (by SKU, case aside)
      const result = rowsOf<{ inserted: boolean }>(
        await tx.execute(sql`
          insert into store_products (store_id, sku, name, item_type_id, length, width, height, weight) values ${values}
          on conflict (store_id, lower(sku)) do update set name = excluded.name, item_type_id = excluded.item_type_id,
            length = excluded.length, width = excluded.width, height = excluded.height, weight = excluded.weight
          returning (xmax = 0) as inserted`),
      );
      const inserted = result.filter((r) => r.inserted).length;
      report.created += inserted;
      report.updated += result.length - inserted;
    }
  });
  return report;
}
