import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, rateLanes, services, zones } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { MAX_YEAR, MIN_YEAR, yearWindowMessage } from "../calendar/dates";
import { parseCsv, toCsv } from "../../utils/csv.server";
import { RATE_CARD_COLUMNS } from "./csv-columns";


const REQUIRED = RATE_CARD_COLUMNS.filter((c) => c !== "som");

const money = (name: string) =>
  z
    .string()
    .regex(/^\d+(\.\d{1,4})?$/, `${name} must be a number of at most 4 decimals, 0 or more`)
    .transform(Number);

/** DD/MM/YYYY or YYYY-MM-DD to YYYY-MM-DD. */
const dateField = z
  .string()
  .transform((v, ctx) => {
    const m = v.match(/^(\d{2})\/(\d{2})\/(\d{4})$/);
    const iso = m ? `${m[3]}-${m[2]}-${m[1]}` : v;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) || new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso) {
      ctx.addIssue({ code: "custom", message: "effective_from must be a date (DD/MM/YYYY or YYYY-MM-DD)" });
      return z.NEVER;
    }
    const year = Number(iso.slice(0, 4));
    if (year < MIN_YEAR || year > MAX_YEAR) {
      ctx.addIssue({ code: "custom", message: yearWindowMessage("effective_from") });
      return z.NEVER;
    }
    return iso;
  });

const laneSchema = z.object({
  carrier_code: z.string().min(1, "carrier_code is required"),
  service_code: z.string().min(1, "service_code is required"),
  rate_code: z.string().min(1, "rate_code is required").max(40),
  from_zone: z.string().min(1, "from_zone is required").max(20),
  to_zone: z.string().min(1, "to_zone is required").max(20),
  basic: money("basic"),
  per_kg: money("per_kg"),
  per_item: money("per_item"),
  minimum: money("minimum"),
  transit_days: z.string().regex(/^\d{1,2}$/, "transit_days must be a whole number of days").transform(Number),
  cubic_factor: z.string().regex(/^\d+(\.\d{1,3})?$/, "cubic_factor must be a number").transform(Number).refine((n) => n > 0, "cubic_factor must be above 0"),
  effective_from: dateField,
  som: z
    .string()
    .optional()
    .transform((v) => (v ? v.toLowerCase() : "metric"))
    .pipe(z.enum(["metric", "imperial"], { error: "som must be metric or imperial" })),
});

export interface ImportReport {
  lines: number;
  created: number;
  updated: number;
  skipped: Array<{ line: number; errors: string[] }>;
}

/**
 * Imports a rate card CSV all or nothing: every line is checked (columns, numbers, dates, known
 * carrier, service and zones); if any line is wrong nothing is written and every bad line is
 * reported. Lanes are keyed by service, rate code, zones and effective date, so re-importing a
 * card replaces its prices and a new effective date adds a new version.
 */
export async function importRateCard(db: DbOrTx, text: string, filename: string): Promise<ImportReport> {
  const { headers, rows } = await parseCsv(text);
  const missing = REQUIRED.filter((c) => !headers.includes(c));
  if (missing.length) {
    throw new AppError("invalid", `Missing columns: ${missing.join(", ")}`, { file: [`Missing columns: ${missing.join(", ")}`] });
  }
  if (rows.length === 0) throw new AppError("invalid", "The file has no lines to import.", { file: ["The file has no lines to import."] });

  const carrierRows = await db.select({ id: carriers.id, code: carriers.code }).from(carriers);
  const serviceRows = await db.select({ id: services.id, code: services.code, carrierId: services.carrierId }).from(services);
  const zoneCodes = await db.selectDistinct({ carrierId: zones.carrierId, code: zones.code }).from(zones);
  const known = new Set(zoneCodes.map((z) => `${z.carrierId}|${z.code.toLowerCase()}`));

  const skipped: ImportReport["skipped"] = [];
  const lanes: Array<typeof rateLanes.$inferInsert> = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const parsed = laneSchema.safeParse(row.values);
    if (!parsed.success) {
      skipped.push({ line: row.line, errors: parsed.error.issues.map((i) => i.message) });
      continue;
    }
    const v = parsed.data;
    const errors: string[] = [];
    const carrier = carrierRows.find((c) => c.code.toLowerCase() === v.carrier_code.toLowerCase());
    const service = carrier && serviceRows.find((s) => s.carrierId === carrier.id && s.code.toLowerCase() === v.service_code.toLowerCase());
    if (!carrier) errors.push(`Unknown carrier ${v.carrier_code}`);
    else if (!service) errors.push(`Unknown service ${v.service_code} for ${carrier.code}`);
    if (carrier) {
      for (const zone of [v.from_zone, v.to_zone]) {
        if (!known.has(`${carrier.id}|${zone.toLowerCase()}`)) errors.push(`Unknown zone ${zone} for ${carrier.code}`);
      }
    }
    const key = `${service?.id}|${v.rate_code}|${v.from_zone}|${v.to_zone}|${v.effective_from}`;
    if (seen.has(key)) errors.push("Duplicate lane (same service, rate code, zones and effective date)");
    seen.add(key);
    if (errors.length) {
      skipped.push({ line: row.line, errors: [...new Set(errors)] });
      continue;
    }
    lanes.push({
      carrierId: carrier!.id,
      serviceId: service!.id,
      rateCode: v.rate_code,
      fromZone: v.from_zone,
      toZone: v.to_zone,
      basic: String(v.basic),
      perKg: String(v.per_kg),
      perItem: String(v.per_item),
      minimum: String(v.minimum),
      transitDays: v.transit_days,
      cubicFactor: String(v.cubic_factor),
      som: v.som,
      effectiveFrom: v.effective_from,
      filename,
    });
  }
  if (skipped.length) {
    throw new AppError("invalid", `Nothing was imported: ${skipped.length} line(s) have errors.`, {
      file: [`Nothing was imported: ${skipped.length} line(s) have errors.`],
      ...Object.fromEntries(skipped.slice(0, 100).map((s) => [`line ${s.line}`, s.errors])),
    });
  }
  // one transaction: a card is imported whole or not at all
  let created = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < lanes.length; i += 500) {
      const chunk = lanes.slice(i, i + 500);
      const result = await tx
        .insert(rateLanes)
        .values(chunk)
        .onConflictDoUpdate({
          target: [rateLanes.serviceId, rateLanes.rateCode, rateLanes.fromZone, rateLanes.toZone, rateLanes.effectiveFrom],
          set: {
            basic: sql`excluded.basic`,
            perKg: sql`excluded.per_kg`,
            perItem: sql`excluded.per_item`,
            minimum: sql`excluded.minimum`,
            transitDays: sql`excluded.transit_days`,
            cubicFactor: sql`excluded.cubic_factor`,
            som: sql`excluded.som`,
            filename: sql`excluded.filename`,
          },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      created += result.filter((r) => r.inserted).length;
    }
  });
  return { lines: rows.length, created, updated: lanes.length - created, skipped: [] };
}

const filterSchema = z.object({
  carrier_code: z.string().optional(),
  service_code: z.string().optional(),
  rate_code: z.string().optional(),
  filename: z.string().optional(),
});

function laneFilter(f: z.infer<typeof filterSchema>) {
  return and(
    f.carrier_code ? sql`lower(${carriers.code}) = ${f.carrier_code.toLowerCase()}` : undefined,
    f.service_code ? sql`lower(${services.code}) = ${f.service_code.toLowerCase()}` : undefined,
    f.rate_code ? eq(rateLanes.rateCode, f.rate_code) : undefined,
    f.filename ? eq(rateLanes.filename, f.filename) : undefined,
  );
}

/** Rate lanes as CSV in the import template, so an export re-imports unchanged. */
export async function exportRateCards(db: DbOrTx, raw: unknown): Promise<string> {
  const f = filterSchema.parse(raw ?? {});
  const rows = await db
    .select({ lane: rateLanes, carrierCode: carriers.code, serviceCode: services.code })
    .from(rateLanes)
    .innerJoin(carriers, eq(carriers.id, rateLanes.carrierId))
    .innerJoin(services, eq(services.id, rateLanes.serviceId))
    .where(laneFilter(f))
    .orderBy(carriers.code, services.code, rateLanes.rateCode, rateLanes.fromZone, rateLanes.toZone, rateLanes.effectiveFrom);
  return toCsv(
    [...RATE_CARD_COLUMNS],
    rows.map(({ lane, carrierCode, serviceCode }) => ({
      carrier_code: carrierCode,
      service_code: serviceCode,
      rate_code: lane.rateCode,
      from_zone: lane.fromZone,
      to_zone: lane.toZone,
      basic: Number(lane.basic),
      per_kg: Number(lane.perKg),
      per_item: Number(lane.perItem),
      minimum: Number(lane.minimum),
      transit_days: lane.transitDays,
      cubic_factor: Number(lane.cubicFactor),
      effective_from: lane.effectiveFrom,
      som: lane.som,
    })),
  );
}

/** Deletes the lanes of one imported file (or of a carrier, service and rate code). */
export async function deleteRateCards(db: DbOrTx, raw: unknown): Promise<{ deleted: number }> {
  const f = filterSchema.parse(raw ?? {});
  if (!f.filename && !f.carrier_code) throw new AppError("invalid", "Name a file or a carrier to delete.", { filename: ["Name a file or a carrier to delete."] });
  const ids = await db
    .select({ id: rateLanes.id })
    .from(rateLanes)
    .innerJoin(carriers, eq(carriers.id, rateLanes.carrierId))
    .innerJoin(services, eq(services.id, rateLanes.serviceId))
    .where(laneFilter(f));
  if (!ids.length) return { deleted: 0 };
  const deleted = await db
    .delete(rateLanes)
    .where(sql`${rateLanes.id} in (${sql.join(ids.map((i) => sql`${i.id}`), sql`, `)})`)
    .returning({ id: rateLanes.id });
  return { deleted: deleted.length };
}

/** Imported rate card files with their lane counts, for the rate editor list. */
export async function listRateCardFiles(db: DbOrTx) {
  return db
    .select({
      filename: rateLanes.filename,
      carrierCode: carriers.code,
      lanes: sql<number>`count(*)::int`,
      effectiveFrom: sql<string>`min(${rateLanes.effectiveFrom})`,
      importedAt: sql<string>`max(${rateLanes.createdAt})`,
    })
    .from(rateLanes)
    .innerJoin(carriers, eq(carriers.id, rateLanes.carrierId))
    .groupBy(rateLanes.filename, carriers.code)
    .orderBy(carriers.code, rateLanes.filename);
}
