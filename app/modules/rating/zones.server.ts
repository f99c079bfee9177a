import { and, count, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { COUNTRIES, jobs, localities, zones } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canSaveZones } from "../auth/roles";
import { createJobRow, updateJobRow } from "../jobs/jobs.server";
import { AppError, notFound } from "../../utils/errors";
import { parseCsv, toCsv } from "../../utils/csv.server";
import { parseOrThrow } from "../../utils/validation";
import { ZONE_COLUMNS } from "./csv-columns";
import { resolveCodes } from "./reference.server";
import { idSchema } from "../../utils/ids";

export const PRIVILEGE_MESSAGE = "Your privilege level does not allow this";
const STEP_DEFAULT = 1000;

const scopeSchema = z.object({
  carrier_code: z.string({ error: "Carrier is required" }).trim().min(1, "Carrier is required"),
  customer_code: z.string().trim().optional().nullable(),
  site_code: z.string().trim().optional().nullable(),
  service_code: z.string().trim().optional().nullable(),
});

const zoneRowSchema = z.object({
  postcode: z.string().regex(/^[A-Za-z0-9 -]{3,10}$/, "postcode must be 3 to 10 letters or digits"),
  locality: z.string().max(100).optional().transform((v) => (v ? v.toUpperCase() : null)),
  sublocality: z.string().max(100).optional().transform((v) => (v ? v.toUpperCase() : null)),
  region: z.string().max(10).optional().transform((v) => (v ? v.toUpperCase() : null)),
  country: z
    .string()
    .optional()
    .transform((v) => (v ? v.toUpperCase() : "AUSTRALIA"))
    .pipe(z.enum(COUNTRIES, { error: `country must be one of ${COUNTRIES.join(", ")}` })),
  zone: z.string().min(1, "zone is required").max(20, "zone is at most 20 characters"),
});
type ZoneRow = z.infer<typeof zoneRowSchema>;

interface ImportState {
  scope: z.infer<typeof scopeSchema>;
  ids: { carrierId: number; customerId: number | null; siteId: number | null; serviceId: number | null };
  rows: Array<{ line: number; values: Record<string, string> }>;
  processed: number;
  valid: Array<ZoneRow & { line: number }>;
  invalid: Array<{ line: number; errors: string[] }>;
  finished?: boolean;
}

/** Zone saving and import are for admin, super_admin and devs (spec 2 section 5); routes ask before reading an upload. */
export function assertMaySave(user: CurrentUser) {
  if (!canSaveZones(user)) throw new AppError("forbidden", PRIVILEGE_MESSAGE);
}

const scopeWhere = (ids: ImportState["ids"]) =>
  and(
    eq(zones.carrierId, ids.carrierId),
    ids.customerId ? eq(zones.customerId, ids.customerId) : isNull(zones.customerId),
    ids.siteId ? eq(zones.siteId, ids.siteId) : isNull(zones.siteId),
    ids.serviceId ? eq(zones.serviceId, ids.serviceId) : isNull(zones.serviceId),
  );

/**
 * Step 1 of a zone import: checks the scope and the file, and keeps its lines for the steps.
 * Answers the import id (uuid) and the number of lines.
 */
export async function startZoneImport(db: DbOrTx, user: CurrentUser, rawScope: unknown, text: string) {
  assertMaySave(user);
  const scope = parseOrThrow(scopeSchema, rawScope);
  const { carrier, customer, site, service } = await resolveCodes(db, scope);
  const { headers, rows } = await parseCsv(text);
  const missing = ["postcode", "zone"].filter((c) => !headers.includes(c));
  if (missing.length) throw new AppError("invalid", `Missing columns: ${missing.join(", ")}`, { file: [`Missing columns: ${missing.join(", ")}`] });
  if (!rows.length) throw new AppError("invalid", "The file has no lines to import.", { file: ["The file has no lines to import."] });
  const state: ImportState = {
    scope,
    ids: { carrierId: carrier.id, customerId: customer?.id ?? null, siteId: site?.id ?? null, serviceId: service?.id ?? null },
    rows,
    processed: 0,
    valid: [],
    invalid: [],
  };
  // one transaction: a file the job row cannot hold must not leave an empty import queued
  const job = await db.transaction(async (tx) => {
    const row = await createJobRow(tx, { name: "zones.import", userId: user.id, customerId: user.customer.id, message: "Checking zones..." });
    await updateJobRow(tx, row.id, { info: state as unknown as Record<string, unknown> });
    return row;
  });
  return { uuid: job.id, length: rows.length };
}

async function loadState(db: DbOrTx, user: CurrentUser, uuid: string): Promise<ImportState> {
  if (!/^[0-9a-f-]{36}$/i.test(uuid)) throw notFound("Zone import");
  const [row] = await db.select().from(jobs).where(and(eq(jobs.id, uuid), eq(jobs.userId, user.id), eq(jobs.name, "zones.import")));
  if (!row) throw notFound("Zone import");
  return row.info as unknown as ImportState;
}

/** Step 2, repeated: checks the next `length` lines (nothing is written to the zones yet). */
export async function continueZoneImport(db: DbOrTx, user: CurrentUser, raw: unknown) {
  assertMaySave(user);
  const { uuid, length } = parseOrThrow(z.object({ uuid: z.string(), length: z.coerce.number().int().min(1).max(10_000).default(STEP_DEFAULT) }), raw);
  const state = await loadState(db, user, uuid);
  if (state.finished) throw new AppError("conflict", "This import has already finished.");
  const slice = state.rows.slice(state.processed, state.processed + length);
  const countries = [...new Set(slice.map((r) => (r.values.country || "AUSTRALIA").toUpperCase()))];
  // a postcode must be a known one wherever localities are loaded for the country
  const loaded = new Set<string>();
  for (const c of countries) {
    if (!(COUNTRIES as readonly string[]).includes(c)) continue;
    const [{ n }] = (await db.select({ n: count() }).from(localities).where(eq(localities.country, c as never))) as [{ n: number }];
    if (Number(n) > 0) loaded.add(c);
  }
  const postcodes = new Set(
    (
      await db
        .selectDistinct({ country: localities.country, postcode: localities.postcode })
        .from(localities)
        .where(sql`${localities.postcode} in (${sql.join(slice.map((r) => sql`${r.values.postcode ?? ""}`), sql`, `)})`)
    ).map((r) => `${r.country}|${r.postcode}`),
  );
  for (const row of slice) {
    const parsed = zoneRowSchema.safeParse(row.values);
    if (!parsed.success) {
      state.invalid.push({ line: row.line, errors: parsed.error.issues.map((i) => i.message) });
      continue;
    }
    if (loaded.has(parsed.data.country) && !postcodes.has(`${parsed.data.country}|${parsed.data.postcode}`)) {
      state.invalid.push({ line: row.line, errors: [`Unknown postcode ${parsed.data.postcode} in ${parsed.data.country}`] });
      continue;
    }
    state.valid.push({ ...parsed.data, line: row.line });
  }
  state.processed += slice.length;
  const complete = state.processed >= state.rows.length;
  await updateJobRow(db, uuid, {
    status: "working",
    pctComplete: Math.floor((state.processed / state.rows.length) * 100),
    message: `Checked ${state.processed} of ${state.rows.length} lines`,
    info: state as unknown as Record<string, unknown>,
  });
  return { uuid, processed: state.processed, total: state.rows.length, complete, invalid: state.invalid.length };
}

const placeKey = (r: { country: string; postcode: string; locality: string | null; sublocality: string | null }) =>
  `${r.country}|${r.postcode}|${r.locality ?? ""}|${r.sublocality ?? ""}`;

/**
 * Step 3: replaces the zones of the scope with the file's valid lines, in one transaction, and
 * reports what was created, changed and deleted, and the invalid lines that were skipped.
 */
export async function finishZoneImport(db: DbOrTx, user: CurrentUser, raw: unknown) {
  assertMaySave(user);
  const { uuid } = parseOrThrow(z.object({ uuid: z.string() }), raw);
  const state = await loadState(db, user, uuid);
  if (state.finished) throw new AppError("conflict", "This import has already finished.");
  if (state.processed < state.rows.length) throw new AppError("conflict", "Continue the import until every line is checked.");

  const result = await db.transaction(async (tx) => {
    const existing = await tx.select().from(zones).where(scopeWhere(state.ids));
    const byPlace = new Map(existing.map((z) => [placeKey(z), z]));
    const created: Array<{ postcode: string; locality: string | null; zone: string }> = [];
    const changed: Array<{ postcode: string; locality: string | null; from: string; to: string }> = [];
    const keep = new Set<string>();
    const fresh: Array<typeof zones.$inferInsert> = [];
    for (const row of state.valid) {
      const key = placeKey(row);
      if (keep.has(key)) continue; // a later duplicate line of the same place is ignored
      keep.add(key);
      const old = byPlace.get(key);
      if (!old) {
        created.push({ postcode: row.postcode, locality: row.locality, zone: row.zone });
        fresh.push({ ...state.ids, country: row.country, postcode: row.postcode, locality: row.locality, sublocality: row.sublocality, region: row.region, code: row.zone });
      } else if (old.code !== row.zone) {
        changed.push({ postcode: row.postcode, locality: row.locality, from: old.code, to: row.zone });
        await tx.update(zones).set({ code: row.zone, updatedAt: new Date() }).where(eq(zones.id, old.id));
      }
    }
    const gone = existing.filter((z) => !keep.has(placeKey(z)));
    for (let i = 0; i < gone.length; i += 500) {
      await tx.delete(zones).where(sql`${zones.id} in (${sql.join(gone.slice(i, i + 500).map((z) => sql`${z.id}`), sql`, `)})`);
    }
    for (let i = 0; i < fresh.length; i += 500) await tx.insert(zones).values(fresh.slice(i, i + 500));
    return {
      created,
      changed,
      deleted: gone.map((z) => ({ postcode: z.postcode, locality: z.locality, zone: z.code })),
    };
  });
  state.finished = true;
  await updateJobRow(db, uuid, {
    status: "complete",
    pctComplete: 100,
    message: `Zones imported: ${result.created.length} created, ${result.changed.length} changed, ${result.deleted.length} deleted, ${state.invalid.length} invalid.`,
    // keep the report, drop the file's lines
    info: { scope: state.scope, finished: true, created: result.created.length, changed: result.changed.length, deleted: result.deleted.length },
  });
  return { ...result, invalid: state.invalid };
}

/** Zones of a scope as CSV in the import layout. Carrier required; customer, site and service optional. */
export async function exportZones(db: DbOrTx, raw: unknown): Promise<string> {
  const scope = parseOrThrow(scopeSchema, raw);
  const { carrier, customer, site, service } = await resolveCodes(db, scope);
  const rows = await db
    .select()
    .from(zones)
    .where(scopeWhere({ carrierId: carrier.id, customerId: customer?.id ?? null, siteId: site?.id ?? null, serviceId: service?.id ?? null }))
    .orderBy(zones.country, zones.postcode, zones.locality);
  return toCsv(
    [...ZONE_COLUMNS],
    rows.map((z) => ({ postcode: z.postcode, locality: z.locality, sublocality: z.sublocality, region: z.region, country: z.country, zone: z.code })),
  );
}

/** The three import steps in one call (the /zones screen's form; scripted callers may step). */
export async function importZones(db: DbOrTx, user: CurrentUser, rawScope: unknown, text: string) {
  const { uuid } = await startZoneImport(db, user, rawScope, text);
  let step = await continueZoneImport(db, user, { uuid, length: 5000 });
  while (!step.complete) step = await continueZoneImport(db, user, { uuid, length: 5000 });
  return finishZoneImport(db, user, { uuid });
}

export const ZONES_PAGE_SIZE = 100;

/** A page of a scope's zones for the zones screen, optionally filtered by postcode or zone prefix. */
export async function listZones(db: DbOrTx, raw: unknown) {
  const f = parseOrThrow(
    scopeSchema.extend({ q: z.string().trim().optional(), page: z.coerce.number().int().min(1).default(1) }),
    raw,
  );
  const { carrier, customer, site, service } = await resolveCodes(db, f);
  const where = and(
    scopeWhere({ carrierId: carrier.id, customerId: customer?.id ?? null, siteId: site?.id ?? null, serviceId: service?.id ?? null }),
    f.q ? sql`(${zones.postcode} like ${`${f.q.replace(/[%_\\]/g, "\\$&")}%`} or lower(${zones.code}) like ${`${f.q.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`})` : undefined,
  );
  const [{ total }] = (await db.select({ total: count() }).from(zones).where(where)) as [{ total: number }];
  const rows = await db
    .select()
    .from(zones)
    .where(where)
    .orderBy(zones.country, zones.postcode, zones.locality)
    .limit(ZONES_PAGE_SIZE)
    .offset((f.page - 1) * ZONES_PAGE_SIZE);
  return { zones: rows, total: Number(total), page: f.page, pages: Math.max(1, Math.ceil(Number(total) / ZONES_PAGE_SIZE)) };
}

const editSchema = z.object({
  id: idSchema("id must be a zone id").optional(),
  postcode: z.string().trim().optional(),
  locality: z.string().trim().optional().nullable(),
  country: z.string().trim().optional(),
  code: z.string().trim().max(20, "zone is at most 20 characters").optional(),
  _destroy: z.preprocess((v) => v === true || v === "1" || v === "on" || v === "true", z.boolean()).default(false),
});

/**
 * Saves edits of a scope's zone rows (the zones screen and POST /api/zones): change a code, delete
 * a row, or add one. All in one transaction; any bad row refuses the whole save.
 */
export async function saveZones(db: DbOrTx, user: CurrentUser, raw: unknown) {
  assertMaySave(user);
  const body = parseOrThrow(scopeSchema.extend({ zones: z.array(editSchema).min(1, "Nothing to save") }), raw);
  const { carrier, customer, site, service } = await resolveCodes(db, body);
  const ids = { carrierId: carrier.id, customerId: customer?.id ?? null, siteId: site?.id ?? null, serviceId: service?.id ?? null };
  const errors: Record<string, string[]> = {};
  const creates: Array<typeof zones.$inferInsert> = [];
  body.zones.forEach((row, i) => {
    if (row.id) {
      if (!row._destroy && !row.code) errors[`zones.${i}.code`] = ["zone is required"];
      return;
    }
    const parsed = zoneRowSchema.safeParse({ postcode: row.postcode ?? "", locality: row.locality ?? undefined, country: row.country || undefined, zone: row.code ?? "" });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) (errors[`zones.${i}.${String(issue.path[0] ?? "code")}`] ??= []).push(issue.message);
      return;
    }
    creates.push({ ...ids, country: parsed.data.country, postcode: parsed.data.postcode, locality: parsed.data.locality, code: parsed.data.zone });
  });
  if (Object.keys(errors).length) throw new AppError("invalid", "There was an error saving the zones.", errors);
  return db.transaction(async (tx) => {
    let updated = 0;
    let deleted = 0;
    for (const row of body.zones.filter((r) => r.id)) {
      // only rows of this scope can be touched: an id from elsewhere matches nothing
      const where = and(eq(zones.id, row.id!), scopeWhere(ids));
      const [existing] = await tx.select({ code: zones.code }).from(zones).where(where);
      if (!existing) throw new AppError("not_found", "Zone not found");
      if (row._destroy) {
        await tx.delete(zones).where(where);
        deleted++;
      } else if (existing.code !== row.code) {
        // the screen posts every row it shows; only a changed code counts as a change
        await tx.update(zones).set({ code: row.code!, updatedAt: new Date() }).where(where);
        updated++;
      }
    }
    if (creates.length) await tx.insert(zones).values(creates);
    return { created: creates.length, updated, deleted };
  });
}
