/**
 * Carriers as staff keep them (issue 17 item 1; spec 2 /carriers, /carrier/{id?} and the
 * "carriers" /api calls). Every function checks the caller (homeButtons.editCarriers), so the
 * screens and /api share one rule. Field errors are 400, as spec 2 section 8 has the screens expect.
 */
import { and, asc, count, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignments, fuelLevies, rateLanes, services, siteServices, surchargeSets, zones } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { sqlState } from "../../utils/http.server";
import { adapterKind } from "./adapters.server";
import { CARRIER_MESSAGES, CARRIER_OPTION_FLAGS, carrierSchema, type CarrierInput, type CarrierJson } from "./admin";
import { renameCodes } from "./rename.server";
import { assertCarrierAdmin, fieldErrors } from "./access.server";

type Row = typeof carriers.$inferSelect;
const usage = {
  services: sql<number>`(select count(*)::int from services s where s.carrier_id = "carriers"."id")`,
  accounts: sql<number>`(select count(*)::int from carrier_accounts a where a.carrier_id = "carriers"."id")`,
  consignments: sql<number>`(select count(*)::int from consignments c join services s on s.id = c.service_id where s.carrier_id = "carriers"."id")`,
  poa: sql<number>`(select count(*)::int from services s where s.carrier_id = "carriers"."id" and s.pay_on_arrival)`,
};
type Usage = { services: number; accounts: number; consignments: number; poa: number };

export function toCarrierJson(r: Row, u: Usage): CarrierJson {
  const options = r.options ?? {};
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    rates_service_key: r.code,
    web_url: r.webUrl,
    default_email: r.defaultEmail,
    note: r.note,
    adapter: adapterKind(r),
    generic: r.generic,
    app_carrier: r.appCarrier,
    pay_on_arrival: r.payOnArrival,
    print_consignments: r.printConsignments,
    manifest_barcode: r.manifestBarcode,
    auto_book: r.autoBook,
    api_track_and_trace: r.apiTrackAndTrace,
    gs1_compliant: r.gs1Compliant,
    pickup_at: r.pickupAt,
    deliver_by: r.deliverBy,
    deliver_at: r.deliverAt,
    ...(Object.fromEntries(CARRIER_OPTION_FLAGS.map((f) => [f, options[f] === true])) as Record<(typeof CARRIER_OPTION_FLAGS)[number], boolean>),
    services_count: Number(u.services),
    accounts_count: Number(u.accounts),
    consignments_count: Number(u.consignments),
    services_pay_on_arrival: Number(u.poa),
  };
}

/** Every carrier, by name; `filter` matches name or code anywhere (the list's filter box). */
export async function listCarriers(db: DbOrTx, user: CurrentUser, filter = ""): Promise<CarrierJson[]> {
  assertCarrierAdmin(user);
  const f = filter.trim().slice(0, 100);
  const like = `%${f.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ c: carriers, ...usage })
    .from(carriers)
    .where(f ? or(ilike(carriers.name, like), ilike(carriers.code, like)) : undefined)
    .orderBy(asc(sql`lower(${carriers.name})`), asc(carriers.id));
  return rows.map(({ c, ...u }) => toCarrierJson(c, u));
}

async function findCarrier(db: DbOrTx, id: number): Promise<CarrierJson | null> {
  const [row] = await db
    .select({ c: carriers, ...usage })
    .from(carriers)
    .where(eq(carriers.id, id));
  return row ? toCarrierJson(row.c, row) : null;
}

/** One carrier; 404 when there is none. */
export async function getCarrier(db: DbOrTx, user: CurrentUser, id: number): Promise<CarrierJson> {
  assertCarrierAdmin(user);
  const found = await findCarrier(db, id);
  if (!found) throw new AppError("not_found", CARRIER_MESSAGES.notFound);
  return found;
}

/** The carrier row of a code (any case), for screens and calls that name carriers by code. */
export async function carrierIdByCode(db: DbOrTx, code: string): Promise<number | null> {
  const [row] = await db.select({ id: carriers.id }).from(carriers).where(sql`lower(${carriers.code}) = lower(${code})`);
  return row?.id ?? null;
}

async function codeTaken(db: DbOrTx, code: string, exceptId: number | null): Promise<boolean> {
  const same = sql`lower(${carriers.code}) = lower(${code})`;
  const [row] = await db.select({ id: carriers.id }).from(carriers).where(exceptId ? and(same, ne(carriers.id, exceptId)) : same).limit(1);
  return Boolean(row);
}

/** What the screen must have confirmed before a save (spec 2 section 5). */
export interface CarrierConfirmations {
  /** turning app carrier on: it overrides any integration */
  appCarrier?: boolean;
  /** changing an existing carrier's code: renamed everywhere, customers' notification configs included */
  rename?: boolean;
}

const columns = (input: CarrierInput, options: Record<string, unknown>) => ({
  name: input.name,
  webUrl: input.web_url,
  defaultEmail: input.default_email,
  note: input.note,
  generic: input.generic,
  appCarrier: input.app_carrier,
  payOnArrival: input.pay_on_arrival,
  printConsignments: input.print_consignments,
  manifestBarcode: input.manifest_barcode,
  autoBook: input.auto_book,
  apiTrackAndTrace: input.api_track_and_trace,
  gs1Compliant: input.gs1_compliant,
  pickupAt: input.pickup_at,
  deliverBy: input.deliver_by,
  deliverAt: input.deliver_at,
  // other keys of options (set by other parts of the product) are kept
  options: { ...options, adapter: input.adapter, ...Object.fromEntries(CARRIER_OPTION_FLAGS.map((f) => [f, input[f]])) },
});

/** The body as a plain object; `rates_service_key` (the spec's name) stands for `code`. */
function bodyOf(raw: unknown): Record<string, unknown> {
  const given = raw && typeof raw === "object" && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
  if (given.code === undefined && given.rates_service_key !== undefined) given.code = given.rates_service_key;
  delete given.rates_service_key;
  if (given.carrier_options && typeof given.carrier_options === "object") Object.assign(given, given.carrier_options);
  delete given.carrier_options;
  return given;
}

const taken = () => fieldErrors({ code: [CARRIER_MESSAGES.codeTaken] });

/** A new carrier; 400 per field (a taken code is told beside the other fields' errors). */
export async function createCarrier(db: DbOrTx, user: CurrentUser, raw: unknown, confirm: CarrierConfirmations = { appCarrier: true }): Promise<CarrierJson> {
  assertCarrierAdmin(user);
  const given = bodyOf(raw);
  const input = await checkCarrier(db, given, null, { appCarrier: confirm.appCarrier, wasAppCarrier: false });
  try {
    const [row] = await db
      .insert(carriers)
      .values({ code: input.code, ...columns(input, {}) })
      .returning({ id: carriers.id });
    return (await findCarrier(db, row!.id))!;
  } catch (error) {
    // another save took the code between the check and the insert: the unique index decides
    if (sqlState(error) === "23505") throw taken();
    throw error;
  }
}

async function checkCarrier(db: DbOrTx, raw: Record<string, unknown>, exceptId: number | null, c: { appCarrier?: boolean; wasAppCarrier: boolean; rename?: boolean; oldCode?: string }) {
  const result = carrierSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  const code = typeof raw.code === "string" ? raw.code.trim() : "";
  if (code && !errors.code && (await codeTaken(db, code, exceptId))) errors.code = [CARRIER_MESSAGES.codeTaken];
  if (result.success && result.data.app_carrier && !c.wasAppCarrier && !c.appCarrier && !errors.app_carrier) errors.app_carrier = [CARRIER_MESSAGES.confirmAppCarrier];
  if (result.success && c.oldCode !== undefined && result.data.code !== c.oldCode && !c.rename && !errors.code) errors.code = [CARRIER_MESSAGES.confirmRename];
  if (Object.keys(errors).length || !result.success) throw fieldErrors(errors);
  return result.data;
}

/**
 * Changes a carrier: the fields given replace its own, those left out keep theirs. A new code is
 * renamed everywhere it is used, in the same transaction as the other changes (renameCodes).
 * The /api call confirms by calling; the screen passes what its confirmation boxes said.
 */
export async function updateCarrier(db: DbOrTx, user: CurrentUser, id: number, raw: unknown, confirm: CarrierConfirmations = { appCarrier: true, rename: true }): Promise<CarrierJson> {
  assertCarrierAdmin(user);
  const current = await findCarrier(db, id);
  if (!current) throw new AppError("not_found", CARRIER_MESSAGES.notFound);
  const { id: _id, rates_service_key: _k, services_count: _s, accounts_count: _a, consignments_count: _c, services_pay_on_arrival: _p, ...stored } = current;
  const merged = { ...stored, ...bodyOf(raw) };
  const input = await checkCarrier(db, merged, id, { appCarrier: confirm.appCarrier, wasAppCarrier: current.app_carrier, rename: confirm.rename, oldCode: current.code });
  // one transaction: a rename that fails leaves the other changes unsaved too, and the reverse
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ options: carriers.options }).from(carriers).where(eq(carriers.id, id)).for("update");
    if (!row) throw new AppError("not_found", CARRIER_MESSAGES.notFound);
    if (input.code !== current.code) await renameCodes(tx, { carrierId: id, newCarrierCode: input.code });
    await tx.update(carriers).set(columns(input, row.options ?? {})).where(eq(carriers.id, id));
  });
  return (await findCarrier(db, id))!;
}

/**
 * Deletes a carrier that no carrier account and no consignment uses (409 with the counts while any
 * does). Its own reference data goes with it: services, zones, lanes, levies, site services and
 * surcharge sets naming it; validations cascade.
 */
export async function deleteCarrier(db: DbOrTx, user: CurrentUser, id: number): Promise<{ id: number; deleted: true }> {
  assertCarrierAdmin(user);
  try {
    // one transaction, the carrier row locked first: an account or consignment saved meanwhile waits, then finds no carrier
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ id: carriers.id }).from(carriers).where(eq(carriers.id, id)).for("update");
      if (!row) throw new AppError("not_found", CARRIER_MESSAGES.notFound);
      const serviceIds = (await tx.select({ id: services.id }).from(services).where(eq(services.carrierId, id))).map((s) => s.id);
      const [accounts] = await tx.select({ n: count() }).from(carrierAccounts).where(eq(carrierAccounts.carrierId, id));
      const [used] = serviceIds.length ? await tx.select({ n: count() }).from(consignments).where(inArray(consignments.serviceId, serviceIds)) : [{ n: 0 }];
      if (Number(accounts?.n ?? 0) || Number(used?.n ?? 0)) throw new AppError("conflict", CARRIER_MESSAGES.inUse(Number(accounts?.n ?? 0), Number(used?.n ?? 0)));
      if (serviceIds.length) await tx.delete(siteServices).where(inArray(siteServices.serviceId, serviceIds));
      await tx.delete(rateLanes).where(eq(rateLanes.carrierId, id));
      await tx.delete(zones).where(eq(zones.carrierId, id));
      await tx.delete(fuelLevies).where(eq(fuelLevies.carrierId, id));
      await tx.delete(surchargeSets).where(eq(surchargeSets.carrierId, id));
      await tx.delete(services).where(eq(services.carrierId, id));
      await tx.delete(carriers).where(eq(carriers.id, id));
    });
  } catch (error) {
    // something else still names it (a booking, say): refused, nothing deleted
    if (sqlState(error) === "23503") throw new AppError("conflict", CARRIER_MESSAGES.usedElsewhere);
    throw error;
  }
  return { id, deleted: true };
}

/** PUT /api/carriers/{id}/update_services {pay_on_arrival}: every service of the carrier rates as "No Rates Provided", or none does. */
export async function updateServicesPayOnArrival(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<CarrierJson> {
  assertCarrierAdmin(user);
  const body = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  if (typeof body.pay_on_arrival !== "boolean") throw fieldErrors({ pay_on_arrival: ["pay_on_arrival must be true or false"] });
  const current = await findCarrier(db, id);
  if (!current) throw new AppError("not_found", CARRIER_MESSAGES.notFound);
  await db.update(services).set({ payOnArrival: body.pay_on_arrival }).where(eq(services.carrierId, id));
  return (await findCarrier(db, id))!;
}
