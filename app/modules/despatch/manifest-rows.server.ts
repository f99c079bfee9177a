/**
 * The manifest rows a user may see: scoping to the working customer and the user's sites, the
 * local-date range filter, and the totals and consignments of each manifest. Reading only.
 *
 * A manifest's day is the date of its despatch time in its site's time zone: a Melbourne
 * despatch at 9 am belongs to that day, not to the UTC day before.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignmentItems, consignments, dangerousGoodsItems, manifests, sites } from "../../../db/schema";
import { localTime } from "../calendar/site-time";
import type { ConsignmentState } from "../../../db/schema/consignments";
import type { CurrentUser } from "../auth/current-user.server";
import { VARIANTS, variantOf } from "../consignments/variants";
import { isInactive } from "../consignments/rules";
import { addDays } from "./manifest-dates";

/** A site filter value: blank or ALL for every site, else one of the user's site ids. */
export function readSite(value: string | null | undefined, user: CurrentUser): { siteId: number | null; ok: boolean } {
  const v = value?.trim() ?? "";
  if (!v || v.toUpperCase() === "ALL") return { siteId: null, ok: true };
  const id = Number(v);
  return Number.isInteger(id) && user.siteIds.includes(id) ? { siteId: id, ok: true } : { siteId: null, ok: false };
}

export const scopeOf = (user: CurrentUser) => and(eq(manifests.customerId, user.customer.id), inArray(manifests.siteId, user.siteIds));

/** The manifest's local despatch date, compared with YYYY-MM-DD strings. */
const localDate = sql<string>`((${manifests.despatchTime} at time zone coalesce(${sites.timezone}, 'UTC'))::date)`;

/** The user's manifests of one site (or all) despatched on the range's local dates. */
export function inRange(user: CurrentUser, siteId: number | null, range: { from: string; to: string }) {
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

export function manifestQuery(db: DbOrTx) {
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
export async function withTotals(db: DbOrTx, user: CurrentUser, rows: ManifestJoin[]): Promise<ManifestRow[]> {
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

/** The consignments of the given (already scoped) manifests, in consignment number order. */
export async function consignmentsOf(db: DbOrTx, user: CurrentUser, manifestIds: number[]): Promise<ManifestConsignment[]> {
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
