/**
 * Consignments' emissions as stored (docs/decisions/041): computed in the transaction that saves a
 * consignment (its weight, places and service are settled there), recomputed by the
 * "emissions.recompute" job when a carrier's factor changes, and read by every view that shows it.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentEmissions, consignments, services, type TransportMode, type CarrierEmissionFactors } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";
import { KG_PER_LB } from "../rating/measure";
import { computeEmissions, METHOD_VERSION, NOT_COMPUTED, tonneKm, type EmissionsField, type EmissionsJson } from "./method";

/** What the method needs of one consignment, in one query for many. */
interface InputRow {
  id: number;
  customer_id: number;
  carrier_id: number | null;
  mode: TransportMode | null;
  carrier_factors: CarrierEmissionFactors | null;
  rating_detail: { charge_weight?: unknown; som?: unknown } | null;
  total_weight: string | null;
  site_som: string | null;
  from_lat: number | null;
  from_lon: number | null;
  to_lat: number | null;
  to_lon: number | null;
}

/** The coordinates of an address's own locality: same country, postcode and name (a NZ suburb or its town). */
const placeOf = (alias: "s" | "r") =>
  sql.raw(`left join lateral (
    select l.latitude, l.longitude from localities l
    where l.country = ${alias}.country and l.postcode = ${alias}.postcode
      and (lower(l.locality) = lower(${alias}.locality) or lower(l.sublocality) = lower(coalesce(${alias}.sublocality, ${alias}.locality)))
      and l.latitude is not null and l.longitude is not null
    order by (lower(l.sublocality) is not distinct from lower(${alias}.sublocality)) desc, l.po_box, l.id
    limit 1
  ) ${alias}l on true`);

async function inputsOf(db: DbOrTx, ids: number[]): Promise<InputRow[]> {
  const raw = await db.execute(sql`
    select c.id, c.customer_id, sv.carrier_id, sv.transport_mode as mode, ca.emission_factors as carrier_factors,
           c.rating_detail, c.total_weight::text as total_weight, st.som as site_som,
           sl.latitude as from_lat, sl.longitude as from_lon, rl.latitude as to_lat, rl.longitude as to_lon
    from consignments c
    join sites st on st.id = c.site_id
    left join services sv on sv.id = c.service_id
    left join carriers ca on ca.id = sv.carrier_id
    left join addresses s on s.id = c.sender_address_id
    left join addresses r on r.id = c.receiver_address_id
    ${placeOf("s")}
    ${placeOf("r")}
    where c.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
    order by c.id`);
  return rowsOf<InputRow>(raw);
}

/** Kilograms and their basis: the rating's charge weight (in its own units) when rated, else the items' dead weight. */
function weightOf(r: InputRow): { kg: number | null; basis: "charge" | "dead" } {
  const charge = Number(r.rating_detail?.charge_weight);
  if (r.rating_detail && Number.isFinite(charge) && charge > 0) return { kg: r.rating_detail.som === "imperial" ? charge * KG_PER_LB : charge, basis: "charge" };
  const dead = Number(r.total_weight);
  return { kg: Number.isFinite(dead) ? (r.site_som === "imperial" ? dead * KG_PER_LB : dead) : null, basis: "dead" };
}

/** The row stored for one consignment: its figure and inputs, or its reason. */
function rowOf(r: InputRow, now: Date): typeof consignmentEmissions.$inferInsert {
  const { kg, basis } = weightOf(r);
  const result = computeEmissions({
    mode: r.mode,
    kg,
    weightBasis: basis,
    from: { latitude: r.from_lat, longitude: r.from_lon },
    to: { latitude: r.to_lat, longitude: r.to_lon },
    carrierFactors: r.carrier_factors,
  });
  const base = { consignmentId: r.id, customerId: r.customer_id, carrierId: r.carrier_id, mode: r.mode, methodVersion: METHOD_VERSION, computedAt: now };
  if (!result.ok) {
    return { ...base, reason: result.reason, kgCo2e: null, tonnes: null, weightBasis: null, km: null, greatCircleKm: null, factorGPerTkm: null, factorSource: null, circuity: null };
  }
  const f = result.figure;
  return {
    ...base,
    reason: null,
    kgCo2e: String(f.kg_co2e),
    tonnes: String(f.tonnes),
    weightBasis: f.weight_basis,
    km: String(f.km),
    greatCircleKm: String(f.great_circle_km),
    factorGPerTkm: String(f.factor),
    factorSource: f.source,
    circuity: f.circuity == null ? null : String(f.circuity),
  };
}

/**
 * Computes and stores the emissions of these consignments (one read, one upsert). Called inside
 * the transaction that wrote them, so the figure never describes a version that did not commit.
 */
export async function refreshEmissions(db: DbOrTx, ids: number[], now = new Date()): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = (await inputsOf(db, [...new Set(ids)])).map((r) => rowOf(r, now));
  if (rows.length === 0) return 0;
  await db
    .insert(consignmentEmissions)
    .values(rows)
    .onConflictDoUpdate({
      target: consignmentEmissions.consignmentId,
      set: Object.fromEntries(
        ["customer_id", "carrier_id", "mode", "kg_co2e", "tonnes", "weight_basis", "km", "great_circle_km", "factor_g_per_tkm", "factor_source", "circuity", "method_version", "reason", "computed_at"].map((c) => [
          c.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase()),
          sql.raw(`excluded.${c}`),
        ]),
      ),
    });
  return rows.length;
}

/** Consignments carried by a carrier's services (every consignment when null; only those with nothing stored when `missing`), in id order after `afterId`. */
export async function consignmentIdsAfter(db: DbOrTx, carrierId: number | null, afterId: number, limit: number, missing = false): Promise<number[]> {
  const rows = await db
    .select({ id: consignments.id })
    .from(consignments)
    .where(
      and(
        sql`${consignments.id} > ${afterId}`,
        carrierId == null ? undefined : inArray(consignments.serviceId, db.select({ id: services.id }).from(services).where(eq(services.carrierId, carrierId))),
        missing ? sql`not exists (select 1 from consignment_emissions e where e.consignment_id = ${consignments.id})` : undefined,
      ),
    )
    .orderBy(consignments.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

type Stored = typeof consignmentEmissions.$inferSelect;

/** A stored row as the JSON field pair; a consignment never computed says so rather than showing nothing. */
export function emissionsField(row: Stored | undefined): EmissionsField {
  if (!row) return { emissions: null, emissions_reason: NOT_COMPUTED };
  if (row.kgCo2e == null || row.reason) return { emissions: null, emissions_reason: row.reason ?? "No figure" };
  const tonnes = Number(row.tonnes);
  const km = Number(row.km);
  const json: EmissionsJson = {
    kg_co2e: Number(row.kgCo2e),
    tonne_km: tonneKm(tonnes, km),
    mode: row.mode!,
    factor: Number(row.factorGPerTkm),
    source: row.factorSource ?? "",
    km,
    tonnes,
  };
  return { emissions: json, emissions_reason: null };
}

/** The stored figures of these consignments by id (callers have already scoped the ids to the viewer). */
export async function emissionsOf(db: DbOrTx, ids: number[]): Promise<Map<number, EmissionsField>> {
  const rows = ids.length ? await db.select().from(consignmentEmissions).where(inArray(consignmentEmissions.consignmentId, ids)) : [];
  const byId = new Map(rows.map((r) => [r.consignmentId, r]));
  return new Map(ids.map((id) => [id, emissionsField(byId.get(id))]));
}

/** One consignment's figure. */
export async function emissionsFor(db: DbOrTx, id: number): Promise<EmissionsField> {
  return (await emissionsOf(db, [id])).get(id)!;
}

/** An invoice's emissions: a total line, never a charge. */
export interface InvoiceEmissions {
  kg_co2e: number;
  /** the invoice's consignments, each counted once however many lines it has */
  consignments: number;
  /** of which have no figure (no coordinates, not computed): the total leaves them out */
  without_figure: number;
}

/** The total of the stored figures of an invoice's consignments (callers have scoped the invoice to the viewer). */
export async function invoiceEmissions(db: DbOrTx, invoiceId: number): Promise<InvoiceEmissions> {
  const [row] = rowsOf<{ kg: string | null; consignments: number; without_figure: number }>(
    await db.execute(sql`
      select coalesce(sum(ce.kg_co2e), 0)::text as kg, count(*)::int as consignments, count(*) filter (where ce.kg_co2e is null)::int as without_figure
      from (select distinct consignment_id from invoice_details where invoice_id = ${invoiceId} and consignment_id is not null) d
      left join consignment_emissions ce on ce.consignment_id = d.consignment_id`),
  );
  return { kg_co2e: Math.round(Number(row?.kg ?? 0) * 1000) / 1000, consignments: Number(row?.consignments ?? 0), without_figure: Number(row?.without_figure ?? 0) };
}
