/**
 * The manifests a user may see (spec 1 sections 2, 3, 5 and 7): the manifests list by carrier,
 * the counts and fetch-by-ids calls of the /api, and manifest readiness for printing. Reading
 * only. Every query is scoped to the working customer and the user's sites (manifest-rows.server.ts);
 * the date rule is in manifest-dates.ts.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignments, manifests, sites } from "../../../db/schema";
import { userToday } from "../calendar/site-time";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { MAX_ID } from "../../utils/ids";
import { resolveDateRange } from "./manifest-dates";
import { consignmentsOf, inRange, manifestQuery, readSite, scopeOf, withTotals, type ManifestConsignment, type ManifestRow } from "./manifest-rows.server";

export const NO_MANIFESTS = "There are no manifests to display.";
export const UNKNOWN_SITE = "Choose one of your sites";
/** The most manifests one list shows: two months of a busy customer fit well inside it. */
export const MAX_LISTED = 1000;
/** The most manifests one fetch by ids takes (as the print routes). */
export const MAX_IDS = 200;

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
