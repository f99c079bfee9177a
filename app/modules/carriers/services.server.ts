/**
 * A carrier's services as staff keep them (issue 17 item 2; spec 2 /carriers/{carrierId}/services,
 * /carriers/{carrierId}/service/{serviceId?} and /api/carriers/{id}/services). The rating engine
 * reads the flags kept here (rating.server.ts): pay on arrival, dangerous goods prohibited,
 * eligible for outbounds and returns. A service is always reached through its carrier: another
 * carrier's service id answers 404.
 */
import { and, asc, count, eq, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignments, rateLanes, services, siteServices, zones } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { sqlState } from "../../utils/http.server";
import { assertCarrierAdmin, fieldErrors } from "./access.server";
import { CARRIER_MESSAGES, SERVICE_MESSAGES, serviceSchema, type ServiceInput, type ServiceJson } from "./admin";
import { renameCodes } from "./rename.server";

type Row = typeof services.$inferSelect;

const toJson = (r: Row, carrierCode: string): ServiceJson => ({
  id: r.id,
  carrier_id: r.carrierId,
  carrier_code: carrierCode,
  code: r.code,
  name: r.name,
  type: r.type,
  transport_mode: r.transportMode,
  group: r.group,
  support_email: r.supportEmail,
  route_code: r.routeCode,
  service_name_by_carrier: r.serviceNameByCarrier,
  service_code_by_carrier: r.serviceCodeByCarrier,
  pay_on_arrival: r.payOnArrival,
  dangerous_goods_prohibited: r.dangerousGoodsProhibited,
  pickup_at: r.pickupAt,
  deliver_by: r.deliverBy,
  deliver_at: r.deliverAt,
  merging_enabled: r.mergingEnabled,
  eligible_for_outbounds: r.eligibleForOutbounds,
  eligible_for_returns: r.eligibleForReturns,
  despatch_booking: r.options?.despatch_booking === true,
});

/** The carrier a service screen or call hangs on; 404 when there is none. */
export async function carrierOf(db: DbOrTx, user: CurrentUser, carrierId: number): Promise<{ id: number; code: string; name: string }> {
  assertCarrierAdmin(user);
  const [c] = await db.select({ id: carriers.id, code: carriers.code, name: carriers.name }).from(carriers).where(eq(carriers.id, carrierId));
  if (!c) throw new AppError("not_found", CARRIER_MESSAGES.notFound);
  return c;
}

/** The carrier's services by code; `filter` matches code or name. */
export async function listServices(db: DbOrTx, user: CurrentUser, carrierId: number, filter = ""): Promise<ServiceJson[]> {
  const carrier = await carrierOf(db, user, carrierId);
  const f = filter.trim().slice(0, 100).toLowerCase();
  const rows = await db
    .select()
    .from(services)
    .where(and(eq(services.carrierId, carrierId), f ? or(sql`strpos(lower(${services.code}), ${f}) > 0`, sql`strpos(lower(${services.name}), ${f}) > 0`) : undefined))
    .orderBy(asc(sql`lower(${services.code})`), asc(services.id));
  return rows.map((r) => toJson(r, carrier.code));
}

async function findService(db: DbOrTx, carrierId: number, id: number): Promise<Row | null> {
  const [row] = await db.select().from(services).where(and(eq(services.id, id), eq(services.carrierId, carrierId)));
  return row ?? null;
}
const notFound = () => new AppError("not_found", SERVICE_MESSAGES.notFound);

/** One service of the carrier; 404 for an unknown id or another carrier's service. */
export async function getService(db: DbOrTx, user: CurrentUser, carrierId: number, id: number): Promise<ServiceJson> {
  const carrier = await carrierOf(db, user, carrierId);
  const row = await findService(db, carrierId, id);
  if (!row) throw notFound();
  return toJson(row, carrier.code);
}

async function checkService(db: DbOrTx, carrierId: number, raw: Record<string, unknown>, exceptId: number | null): Promise<ServiceInput> {
  const result = serviceSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  const code = typeof raw.code === "string" ? raw.code.trim() : "";
  if (code && !errors.code) {
    const same = and(eq(services.carrierId, carrierId), sql`lower(${services.code}) = lower(${code})`);
    const [clash] = await db.select({ id: services.id }).from(services).where(exceptId ? and(same, ne(services.id, exceptId)) : same).limit(1);
    if (clash) errors.code = [SERVICE_MESSAGES.codeTaken];
  }
  if (Object.keys(errors).length || !result.success) throw fieldErrors(errors);
  return result.data;
}

const columns = (input: ServiceInput, options: Record<string, unknown>) => ({
  name: input.name,
  type: input.type,
  transportMode: input.transport_mode,
  group: input.group,
  supportEmail: input.support_email,
  routeCode: input.route_code,
  serviceNameByCarrier: input.service_name_by_carrier,
  serviceCodeByCarrier: input.service_code_by_carrier,
  payOnArrival: input.pay_on_arrival,
  dangerousGoodsProhibited: input.dangerous_goods_prohibited,
  pickupAt: input.pickup_at,
  deliverBy: input.deliver_by,
  deliverAt: input.deliver_at,
  mergingEnabled: input.merging_enabled,
  eligibleForOutbounds: input.eligible_for_outbounds,
  eligibleForReturns: input.eligible_for_returns,
  options: { ...options, despatch_booking: input.despatch_booking },
});

const asObject = (raw: unknown): Record<string, unknown> => (raw && typeof raw === "object" && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {});
const taken = () => fieldErrors({ code: [SERVICE_MESSAGES.codeTaken] });

/** A new service of the carrier; 400 per field. */
export async function createService(db: DbOrTx, user: CurrentUser, carrierId: number, raw: unknown): Promise<ServiceJson> {
  const carrier = await carrierOf(db, user, carrierId);
  const input = await checkService(db, carrierId, asObject(raw), null);
  try {
    const [row] = await db.insert(services).values({ carrierId, code: input.code, ...columns(input, {}) }).returning();
    return toJson(row!, carrier.code);
  } catch (error) {
    // the code taken between the check and the insert: the unique index decides
    if (sqlState(error) === "23505") throw taken();
    throw error;
  }
}

/** Changes a service: fields given replace its own; a new code is renamed everywhere it is used, in one transaction. */
export async function updateService(db: DbOrTx, user: CurrentUser, carrierId: number, id: number, raw: unknown): Promise<ServiceJson> {
  const carrier = await carrierOf(db, user, carrierId);
  const current = await findService(db, carrierId, id);
  if (!current) throw notFound();
  const { id: _id, carrier_id: _c, carrier_code: _k, ...stored } = toJson(current, carrier.code);
  const input = await checkService(db, carrierId, { ...stored, ...asObject(raw) }, id);
  try {
    // one transaction: the new code and the other fields are saved together, or neither is
    await db.transaction(async (tx) => {
      if (input.code !== current.code) await renameCodes(tx, { carrierId, serviceId: id, newServiceCode: input.code });
      await tx.update(services).set(columns(input, current.options ?? {})).where(eq(services.id, id));
    });
  } catch (error) {
    if (sqlState(error) === "23505") throw taken();
    throw error;
  }
  return toJson((await findService(db, carrierId, id))!, carrier.code);
}

/**
 * Deletes a service no consignment and no carrier account uses (409 while any does); its site
 * services, zone rows and rate lanes go with it.
 */
export async function deleteService(db: DbOrTx, user: CurrentUser, carrierId: number, id: number): Promise<{ id: number; deleted: true }> {
  await carrierOf(db, user, carrierId);
  try {
    // the service row locked first: a consignment saved meanwhile waits, then finds no service
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ id: services.id }).from(services).where(and(eq(services.id, id), eq(services.carrierId, carrierId))).for("update");
      if (!row) throw notFound();
      const [c] = await tx.select({ n: count() }).from(consignments).where(eq(consignments.serviceId, id));
      const [a] = await tx.select({ n: count() }).from(carrierAccounts).where(eq(carrierAccounts.serviceId, id));
      if (Number(c?.n ?? 0) || Number(a?.n ?? 0)) throw new AppError("conflict", SERVICE_MESSAGES.inUse);
      await tx.delete(siteServices).where(eq(siteServices.serviceId, id));
      await tx.delete(rateLanes).where(eq(rateLanes.serviceId, id));
      await tx.delete(zones).where(eq(zones.serviceId, id));
      await tx.delete(services).where(eq(services.id, id));
    });
  } catch (error) {
    if (sqlState(error) === "23503") throw new AppError("conflict", SERVICE_MESSAGES.inUse);
    throw error;
  }
  return { id, deleted: true };
}
