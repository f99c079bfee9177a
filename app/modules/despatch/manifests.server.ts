/**
 * The manifests a user may see (spec 1 sections 2, 3, 5 and 7): the manifests list by carrier,
 * the counts and fetch-by-ids calls of the /api, and manifest readiness for printing. Reading
 * only. Every query is scoped to the working customer and the user's sites.
 *
 * A manifest's day is the date of its despatch time in its site's time zone: a Melbourne
 * despatch at 9 am belongs to that day, not to the UTC day before.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignmentItems, consignments, dangerousGoodsItems, manifests, sites } from "../../../db/schema";
import { localTime, userToday } from "../calendar/site-time";
import type { ConsignmentState } from "../../../db/schema/consignments";
import type { CurrentUser } from "../auth/current-user.server";
import { VARIANTS, variantOf } from "../consignments/variants";
import { isInactive } from "../consignments/rules";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { MAX_ID } from "../../utils/ids";

export const DATE_RANGE_TOO_LARGE = "Date range too large, please select dates within 2 months.";
export const NO_MANIFESTS = "There are no manifests to display.";
export const INVALID_DATE = "Enter a date as YYYY-MM-DD";
export const UNKNOWN_SITE = "Choose one of your sites";
/** The widest manifest date range (spec 1 sections 5 and 9). */
export const MAX_RANGE_MONTHS = 2;
/** The most manifests one list shows: two months of a busy customer fit well inside it. */
export const MAX_LISTED = 1000;
/** The most manifests one fetch by ids takes (as the print routes). */
export const MAX_IDS = 200;

// ---------------------------------------------------------------------------------------------
// Dates (pure)

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDate(s: string): boolean {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Calendar months later, the day clamped to the month's end (31 Dec + 2 months = 28/29 Feb). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export interface DateRange {
  from: string;
  to: string;
  /** per field (named by `names`); empty when the range may be shown */
  errors: FieldErrors;
}

/**
 * The manifest date rule (spec 1 section 5): blank dates are today; from after to moves the
 * other date (here `to`: the server cannot tell which one the user changed; the screen's script
 * moves the right one before submitting); more than 2 months apart is refused.
 */
export function resolveDateRange(
  input: { from?: string | null; to?: string | null },
  today: string,
  names: { from: string; to: string } = { from: "from", to: "to" },
): DateRange {
  const errors: FieldErrors = {};
  const read = (value: string | null | undefined, field: string) => {
    const v = value?.trim() ?? "";
    if (!v) return today;
    if (isIsoDate(v)) return v;
    errors[field] = [INVALID_DATE];
    return v;
  };
  const from = read(input.from, names.from);
  let to = read(input.to, names.to);
  if (Object.keys(errors).length) return { from, to, errors };
  if (from > to) to = from;
  if (to > addMonths(from, MAX_RANGE_MONTHS)) errors[names.to] = [DATE_RANGE_TOO_LARGE];
  return { from, to, errors };
}

// ---------------------------------------------------------------------------------------------
// Scope

/** A site filter value: blank or ALL for every site, else one of the user's site ids. */
function readSite(value: string | null | undefined, user: CurrentUser): { siteId: number | null; ok: boolean } {
  const v = value?.trim() ?? "";
  if (!v || v.toUpperCase() === "ALL") return { siteId: null, ok: true };
  const id = Number(v);
  return Number.isInteger(id) && user.siteIds.includes(id) ? { siteId: id, ok: true } : { siteId: null, ok: false };
}

const scopeOf = (user: CurrentUser) => and(eq(manifests.customerId, user.customer.id), inArray(manifests.siteId, user.siteIds));

/** The manifest's local despatch date, compared with YYYY-MM-DD strings. */
const localDate = sql<string>`((${manifests.despatchTime} at time zone coalesce(${sites.timezone}, 'UTC'))::date)`;

/** The user's manifests of one site (or all) despatched on the range's local dates. */
function inRange(user: CurrentUser, siteId: number | null, range: { from: string; to: string }) {
  return and(
    scopeOf(user),
    siteId ? eq(manifests.siteId, siteId) : undefined,
    isNotNull(manifests.despatchTime),
    // a day either side in UTC narrows by the (customer, despatch time) index; the local date decides
    gte(manifests.despatchTime, new Date(`${addDays(range.from, -1)}T00:00:00Z`)),
    lt(manifests.despatchTime, new Date(`${addDays(range.to, 2)}T00:00:00Z`)),
    sql`${localDate} between ${range.from}::date and ${range.to}::date`,
  );
}

// ---------------------------------------------------------------------------------------------
// Rows

/** The Manifest of spec 1 section 3, plus what the list shows with it. */
export interface ManifestRow {
  id: number;
  number: string;
  carrier_name: string;
  carrier_code: string;
  site_id: number;
  site_name: string;
  /** ISO instant */
  despatch_time: string | null;
  /** the despatch time in the site's zone and date format */
  despatch_time_local: string | null;
  status: "pending" | "ready" | "failed";
  failed_despatch: boolean;
  failure_reason: string | null;
  print_connote: boolean;
  print_dangerous_goods_documents: boolean;
  total_consignments: number;
  /** packages (item quantities), as the manifest report counts them */
  total_items: number;
  total_weight: number;
  total_volume: number;
  /** packages carrying dangerous goods, as the manifest report counts them */
  hazardous_goods: number;
  consignments_ids: number[];
  som: "metric" | "imperial";
}

export interface ManifestConsignment {
  id: number;
  manifest_id: number;
  consignment_number: string | null;
  party_name: string | null;
  reference: string | null;
  item_count: number;
  total_weight: number;
  total_volume: number;
  hazardous: boolean;
  state: ConsignmentState;
  /** the consignment's screen; null for merged or deleted ones (shown without a link) */
  url: string | null;
  som: "metric" | "imperial";
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

function manifestQuery(db: DbOrTx) {
  return db
    .select({
      m: manifests,
      carrierName: carriers.name,
      carrierCode: carriers.code,
      siteName: sites.name,
      timezone: sites.timezone,
      country: sites.country,
      som: sites.som,
    })
    .from(manifests)
    .innerJoin(carrierAccounts, eq(carrierAccounts.id, manifests.carrierAccountId))
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .innerJoin(sites, eq(sites.id, manifests.siteId));
}
type ManifestJoin = Awaited<ReturnType<ReturnType<typeof manifestQuery>["where"]>>[number];

/** Totals of each manifest, read from the list columns of its consignments. */
async function withTotals(db: DbOrTx, user: CurrentUser, rows: ManifestJoin[]): Promise<ManifestRow[]> {
  const ids = rows.map((r) => r.m.id);
  const totals = ids.length
    ? await db
        .select({
          manifestId: consignments.manifestId,
          n: sql<number>`count(*)::int`,
          items: sql<number>`coalesce(sum(${consignments.itemCount}), 0)::int`,
          weight: sql<string>`coalesce(sum(${consignments.totalWeight}), 0)`,
          volume: sql<string>`coalesce(sum(${consignments.totalVolume}), 0)`,
          ids: sql<number[]>`array_agg(${consignments.id} order by ${consignments.id})`,
        })
        .from(consignments)
        .where(and(inArray(consignments.manifestId, ids), eq(consignments.customerId, user.customer.id)))
        .groupBy(consignments.manifestId)
    : [];
  // hazardous packages: quantities of the lines that carry dangerous goods (as the printed report)
  const hazardous = ids.length
    ? await db
        .select({ manifestId: consignments.manifestId, packages: sql<number>`coalesce(sum(${consignmentItems.quantity}), 0)::int` })
        .from(consignmentItems)
        .innerJoin(consignments, eq(consignments.id, consignmentItems.consignmentId))
        .where(
          and(
            inArray(consignments.manifestId, ids),
            eq(consignments.customerId, user.customer.id),
            eq(consignments.hazardous, true),
            sql`exists (select 1 from ${dangerousGoodsItems} where ${dangerousGoodsItems.itemId} = ${consignmentItems.id})`,
          ),
        )
        .groupBy(consignments.manifestId)
    : [];
  const totalOf = new Map(totals.map((t) => [t.manifestId!, t]));
  const hazardousOf = new Map(hazardous.map((h) => [h.manifestId!, Number(h.packages)]));
  return rows.map(({ m, carrierName, carrierCode, siteName, timezone, country, som }) => {
    const t = totalOf.get(m.id);
    return {
      id: m.id,
      number: m.number,
      carrier_name: carrierName,
      carrier_code: carrierCode,
      site_id: m.siteId,
      site_name: siteName,
      despatch_time: m.despatchTime ? m.despatchTime.toISOString() : null,
      despatch_time_local: m.despatchTime ? localTime(m.despatchTime, timezone, country) : null,
      status: m.status,
      failed_despatch: m.failedDespatch,
      failure_reason: m.failureReason,
      print_connote: m.printConnote,
      print_dangerous_goods_documents: m.printDangerousGoodsDocuments,
      total_consignments: Number(t?.n ?? 0),
      total_items: Number(t?.items ?? 0),
      total_weight: round(Number(t?.weight ?? 0), 3),
      total_volume: round(Number(t?.volume ?? 0), 4),
      hazardous_goods: hazardousOf.get(m.id) ?? 0,
      // array_agg answers a Postgres array; PGlite and postgres.js both give a JS array of numbers
      consignments_ids: (t?.ids ?? []).map(Number),
      som,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The manifests list (GET /manifests)

export interface ManifestFilters {
  site?: string | null;
  from?: string | null;
  to?: string | null;
  /** manifest ids whose consignments are shown, comma separated */
  open?: string | null;
}

export interface ManifestGroup {
  carrier_name: string;
  manifests: ManifestRow[];
}

export interface ManifestList {
  /** the filters as applied (dates as entered when they are in error) */
  filters: { site: string; from: string; to: string; open: number[] };
  errors: FieldErrors;
  groups: ManifestGroup[];
  /** consignments of the open manifests, by manifest id */
  consignments: Record<number, ManifestConsignment[]>;
  /** more manifests matched than the list shows */
  truncated: boolean;
}

const parseIds = (value: string | null | undefined) =>
  [...new Set((value ?? "").split(",").map((s) => Number(s.trim())))].filter((n) => Number.isInteger(n) && n > 0 && n <= MAX_ID).slice(0, MAX_LISTED);

/** The user's manifests of a site (or all) despatched in a date range, grouped per carrier. */
export async function listManifests(db: DbOrTx, user: CurrentUser, filters: ManifestFilters, now = new Date()): Promise<ManifestList> {
  const site = readSite(filters.site, user);
  const range = resolveDateRange({ from: filters.from, to: filters.to }, userToday(user, site.siteId, now));
  const errors: FieldErrors = { ...range.errors, ...(site.ok ? {} : { site: [UNKNOWN_SITE] }) };
  const open = parseIds(filters.open);
  const applied = { site: site.siteId ? String(site.siteId) : "", from: range.from, to: range.to, open };
  if (Object.keys(errors).length || !user.siteIds.length) return { filters: applied, errors, groups: [], consignments: {}, truncated: false };

  const rows = await manifestQuery(db)
    .where(
      inRange(user, site.siteId, range),
    )
    .orderBy(asc(carriers.name), desc(manifests.despatchTime), desc(manifests.id))
    .limit(MAX_LISTED + 1);
  const truncated = rows.length > MAX_LISTED;
  const list = await withTotals(db, user, rows.slice(0, MAX_LISTED));

  const groups: ManifestGroup[] = [];
  for (const m of list) {
    const last = groups[groups.length - 1];
    if (last?.carrier_name === m.carrier_name) last.manifests.push(m);
    else groups.push({ carrier_name: m.carrier_name, manifests: [m] });
  }
  const shownOpen = open.filter((id) => list.some((m) => m.id === id));
  const members = shownOpen.length ? await consignmentsOf(db, user, shownOpen) : [];
  const byManifest: Record<number, ManifestConsignment[]> = {};
  for (const id of shownOpen) byManifest[id] = members.filter((c) => c.manifest_id === id);
  return { filters: applied, errors, groups, consignments: byManifest, truncated };
}

/** The consignments of the given (already scoped) manifests, in consignment number order. */
async function consignmentsOf(db: DbOrTx, user: CurrentUser, manifestIds: number[]): Promise<ManifestConsignment[]> {
  const rows = await db
    .select({
      id: consignments.id,
      manifestId: consignments.manifestId,
      number: consignments.consignmentNumber,
      party: consignments.partyName,
      reference: consignments.reference,
      items: consignments.itemCount,
      weight: consignments.totalWeight,
      volume: consignments.totalVolume,
      hazardous: consignments.hazardous,
      state: consignments.state,
      isQuote: consignments.isQuote,
      returnType: consignments.returnType,
      active: consignments.active,
      som: sites.som,
    })
    .from(consignments)
    .innerJoin(sites, eq(sites.id, consignments.siteId))
    .where(and(inArray(consignments.manifestId, manifestIds), eq(consignments.customerId, user.customer.id)))
    .orderBy(asc(consignments.consignmentNumber), asc(consignments.id));
  return rows.map((r) => ({
    id: r.id,
    manifest_id: r.manifestId!,
    consignment_number: r.number,
    party_name: r.party,
    reference: r.reference,
    item_count: r.items,
    total_weight: round(Number(r.weight), 3),
    total_volume: round(Number(r.volume), 4),
    hazardous: r.hazardous,
    state: r.state,
    url: !r.active || isInactive(r.state) ? null : `${VARIANTS[variantOf({ is_quote: r.isQuote, return_type: r.returnType })].path}/${r.id}`,
    som: r.som,
  }));
}

// ---------------------------------------------------------------------------------------------
// The /api calls

// one message per field: a bad id names the ids field, not its position in the list
const idsField = z
  .string()
  .trim()
  .min(1, "ids are required")
  .regex(/^\d+(\s*,\s*\d+)*$/, "ids must be manifest ids separated by commas")
  .transform((s) => [...new Set(s.split(",").map((x) => Number(x.trim())))])
  .refine((ids) => ids.every((n) => Number.isInteger(n) && n > 0 && n <= MAX_ID), "ids must be manifest ids")
  .refine((ids) => ids.length <= MAX_IDS, `At most ${MAX_IDS} at a time`);

const idsQuery = z.object({ ids: z.string({ error: "ids are required" }).pipe(idsField) });

/** The user's manifests among `ids`, scoped; any other id answers 404 (as the print routes). */
async function scopedManifests(db: DbOrTx, user: CurrentUser, ids: number[]) {
  if (!user.siteIds.length) throw notFound("Manifest");
  const rows = await manifestQuery(db).where(and(inArray(manifests.id, ids), scopeOf(user)));
  if (rows.length !== ids.length) throw notFound("Manifest");
  return ids.map((id) => rows.find((r) => r.m.id === id)!);
}

/** GET /api/manifests?ids=1,2: those manifests, in the order asked. */
export async function manifestsByIds(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ manifests: ManifestRow[] }> {
  const { ids } = parseOrThrow(idsQuery, raw);
  return { manifests: await withTotals(db, user, await scopedManifests(db, user, ids)) };
}

/** GET /api/manifests/consignments?ids=1,2: the consignments of those manifests. */
export async function consignmentsOfManifests(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ consignments: ManifestConsignment[] }> {
  const { ids } = parseOrThrow(idsQuery, raw);
  await scopedManifests(db, user, ids);
  return { consignments: await consignmentsOf(db, user, ids) };
}

/**
 * What a print of the user's manifests sends: the manifest ids themselves (Print Manifests) or
 * the ids of their consignments (Print connote). Another customer's manifest answers 404.
 */
export async function printableIds(db: DbOrTx, user: CurrentUser, manifestIds: number[], what: "manifests" | "connotes"): Promise<number[]> {
  await scopedManifests(db, user, manifestIds);
  if (what === "manifests") return manifestIds;
  const rows = await db
    .select({ id: consignments.id })
    .from(consignments)
    .where(and(inArray(consignments.manifestId, manifestIds), eq(consignments.customerId, user.customer.id)))
    .orderBy(asc(consignments.consignmentNumber), asc(consignments.id));
  return rows.map((r) => r.id);
}

const countsQuery = z.object({
  fromDate: z.string().optional(),
  toDate: z.string().optional(),
  siteId: z.string().optional(),
});

export interface CarrierCount {
  carrier_name: string;
  carrier_code: string;
  count: number;
}

/**
 * GET /api/manifests?fromDate&toDate&siteId: how many manifests each carrier has in the range
 * (same date rule as the list; blank dates are today, siteId blank or ALL for every site).
 */
export async function manifestCountsByCarrier(
  db: DbOrTx,
  user: CurrentUser,
  raw: unknown,
  now = new Date(),
): Promise<{ from_date: string; to_date: string; site_id: number | null; carriers: CarrierCount[]; total: number }> {
  const q = parseOrThrow(countsQuery, raw);
  const site = readSite(q.siteId, user);
  const range = resolveDateRange({ from: q.fromDate, to: q.toDate }, userToday(user, site.siteId, now), { from: "fromDate", to: "toDate" });
  const errors: FieldErrors = { ...(site.ok ? {} : { siteId: [UNKNOWN_SITE] }), ...range.errors };
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  const empty = { from_date: range.from, to_date: range.to, site_id: site.siteId };
  if (!user.siteIds.length) return { ...empty, carriers: [], total: 0 };
  const rows = await db
    .select({ name: carriers.name, code: carriers.code, n: sql<number>`count(*)::int` })
    .from(manifests)
    .innerJoin(carrierAccounts, eq(carrierAccounts.id, manifests.carrierAccountId))
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .innerJoin(sites, eq(sites.id, manifests.siteId))
    .where(
      inRange(user, site.siteId, range),
    )
    .groupBy(carriers.name, carriers.code)
    .orderBy(asc(carriers.name));
  const list = rows.map((r) => ({ carrier_name: r.name, carrier_code: r.code, count: Number(r.n) }));
  return { ...empty, carriers: list, total: list.reduce((n, c) => n + c.count, 0) };
}

/**
 * GET /api/manifests/{id}/ready_for_print: the screen polls this every second after an
 * Australia Post despatch; ready prints, failed is the despatch failure (spec 1 sections 4, 8).
 */
export async function readyForPrint(db: DbOrTx, user: CurrentUser, id: number): Promise<{ status: ManifestRow["status"]; ready: boolean }> {
  if (!user.siteIds.length) throw notFound("Manifest");
  const [row] = await db
    .select({ status: manifests.status })
    .from(manifests)
    .where(and(eq(manifests.id, id), scopeOf(user)));
  if (!row) throw notFound("Manifest");
  return { status: row.status, ready: row.status === "ready" };
}
