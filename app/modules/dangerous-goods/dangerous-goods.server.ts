import { asc, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { dangerousGoodsTypes } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { parseCsv } from "../../utils/csv.server";
import { startsWith } from "../localities/localities.server";
import { UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";

export const DG_MIN_QUERY = 3;
export const DG_SUGGESTIONS = 10;

export interface DangerousGoodsTypeJson {
  id: number;
  un_number: string;
  proper_shipping_name: string;
  hazard_class: string | null;
  sub_risk: string | null;
  packing_group: string | null;
  nos: boolean;
}

const toJson = (r: typeof dangerousGoodsTypes.$inferSelect): DangerousGoodsTypeJson => ({
  id: r.id,
  un_number: r.unNumber,
  proper_shipping_name: r.properShippingName,
  hazard_class: r.hazardClass,
  sub_risk: r.subRisk,
  packing_group: r.packingGroup,
  nos: r.nos,
});

/**
 * GET /api/dangerous_goods_types?query: from 3 characters; digits (with or without "UN") search
 * UN numbers, anything else proper shipping names; 10 at most, best match first.
 */
export async function searchDangerousGoods(db: DbOrTx, rawQuery: string): Promise<DangerousGoodsTypeJson[]> {
  const query = rawQuery.trim();
  if (query.length < DG_MIN_QUERY) return [];
  const un = /^(un)?\s*(\d+)$/i.exec(query);
  const rows = un
    ? await db
        .select()
        .from(dangerousGoodsTypes)
        .where(sql`${dangerousGoodsTypes.unNumber} like ${startsWith(un[2]!)}`)
        .orderBy(asc(dangerousGoodsTypes.unNumber), asc(dangerousGoodsTypes.properShippingName))
        .limit(DG_SUGGESTIONS)
    : await db
        .select()
        .from(dangerousGoodsTypes)
        .where(sql`lower(${dangerousGoodsTypes.properShippingName}) like ${"%" + startsWith(query.toLowerCase())}`)
        // names starting with the query first, then those containing it
        .orderBy(sql`(lower(${dangerousGoodsTypes.properShippingName}) like ${startsWith(query.toLowerCase())}) desc`, asc(dangerousGoodsTypes.properShippingName))
        .limit(DG_SUGGESTIONS);
  return rows.map(toJson);
}

const blank = (v: string | undefined) => (v ? v : null);
const rowSchema = z.object({
  un_number: z
    .string()
    .trim()
    .transform((v) => v.replace(/^un\s*/i, ""))
    .pipe(z.string().regex(/^\d{4}$/, "UN number must be 4 digits")),
  proper_shipping_name: z.string().trim().min(1, "Proper shipping name is required").max(255, "Proper shipping name is too long"),
  hazard_class: z.string().trim().max(6, "Class is too long (maximum is 6 characters)").optional().transform(blank),
  sub_risk: z.string().trim().max(6, "Sub risk is too long (maximum is 6 characters)").optional().transform(blank),
  packing_group: z
    .string()
    .trim()
    .optional()
    .transform(blank)
    .pipe(z.enum(["I", "II", "III"], { error: "Packing group must be I, II or III" }).nullable()),
  nos: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").toLowerCase();
      if (["", "false", "no", "0", "n"].includes(s)) return false;
      if (["true", "yes", "1", "y"].includes(s)) return true;
      ctx.addIssue({ code: "custom", message: "nos must be true or false" });
      return z.NEVER;
    }),
});

export const DG_COLUMNS = ["un_number", "proper_shipping_name", "hazard_class", "sub_risk", "packing_group", "nos"] as const;

/**
 * Adds or updates dangerous goods entries from CSV (columns DG_COLUMNS); the good lines are
 * applied in one transaction and every bad line is reported, none half applied.
 */
export async function importDangerousGoodsCsv(db: DbOrTx, text: string) {
  const { headers, rows } = await parseCsv(text);
  const missing = ["un_number", "proper_shipping_name", "hazard_class"].filter((c) => !headers.includes(c));
  if (missing.length) throw new AppError("invalid", `Missing columns: ${missing.join(", ")}`, { file: [`Missing columns: ${missing.join(", ")}`] });
  const skipped: Array<{ line: number; errors: string[] }> = [];
  let skippedTotal = 0;
  const good: Array<typeof dangerousGoodsTypes.$inferInsert> = [];
  for (const row of rows) {
    const parsed = rowSchema.safeParse(row.values);
    if (!parsed.success) {
      skippedTotal++;
      if (skipped.length < UPLOAD_ERRORS_SHOWN) skipped.push({ line: row.line, errors: parsed.error.issues.map((i) => i.message) });
      continue;
    }
    const d = parsed.data;
    good.push({ unNumber: d.un_number, properShippingName: d.proper_shipping_name.toUpperCase(), hazardClass: d.hazard_class, subRisk: d.sub_risk, packingGroup: d.packing_group, nos: d.nos });
  }
  let created = 0;
  let updated = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < good.length; i += 500) {
      const values = sql.join(
        good.slice(i, i + 500).map((d) => sql`(${d.unNumber}, ${d.properShippingName}, ${d.hazardClass ?? null}, ${d.subRisk ?? null}, ${d.packingGroup ?? null}, ${d.nos ?? false})`),
        sql`, `,
      );
      // the conflict target is the expression index dangerous_goods_types_key
      const raw = (await tx.execute(sql`
        insert into dangerous_goods_types (un_number, proper_shipping_name, hazard_class, sub_risk, packing_group, nos) values ${values}
        on conflict (un_number, lower(proper_shipping_name))
        do update set hazard_class = excluded.hazard_class, sub_risk = excluded.sub_risk, packing_group = excluded.packing_group, nos = excluded.nos
        returning (xmax = 0) as inserted`)) as unknown as { rows?: Array<{ inserted: boolean }> } | Array<{ inserted: boolean }>;
      const result = Array.isArray(raw) ? raw : (raw.rows ?? []);
      created += result.filter((r) => r.inserted).length;
      updated += result.length - result.filter((r) => r.inserted).length;
    }
  });
  return { created, updated, skipped, skipped_total: skippedTotal };
}
