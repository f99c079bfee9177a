/**
 * Renaming a carrier's code or a service's code everywhere it is used (issue 17 item 1; spec 2
 * "PUT /api/update_accounts_carrier_and_service_code/"). Most tables name carriers and services by
 * id; these name them by text, and are all renamed in the caller's transaction:
 *   carriers.code, services.code;
 *   surcharge_sets.service_codes (the carrier's service codes a set applies to);
 *   consignments.preselected_carrier_service, rule_based_service, cheapest_carrier_service
 *   ("CARRIER:SERVICE" keys, or a bare service code for a preselection).
 * Carrier accounts, zones, rate cards, site services and notification configs hold ids, so they
 * show the new code as soon as the rows above change.
 */
import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, consignments, services, surchargeSets } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { sqlState } from "../../utils/http.server";
import { assertCarrierAdmin, fieldErrors, parseFields } from "./access.server";
import { CARRIER_MESSAGES, RENAME_MESSAGES, SERVICE_MESSAGES, renameSchema } from "./admin";

export interface Rename {
  carrierId: number;
  newCarrierCode?: string;
  serviceId?: number;
  newServiceCode?: string;
}

const KEY_COLUMNS = ["preselectedCarrierService", "ruleBasedService", "cheapestCarrierService"] as const;
const ofCarrier = (carrierId: number) => inArray(consignments.serviceId, sqlIds(carrierId));
const sqlIds = (carrierId: number) => sql`(select id from services where carrier_id = ${carrierId})`;

/** Renames in `tx` (the caller's transaction); the codes' uniqueness is the caller's check and the indexes' last word. */
export async function renameCodes(tx: DbOrTx, r: Rename): Promise<void> {
  const [carrier] = await tx.select({ code: carriers.code }).from(carriers).where(eq(carriers.id, r.carrierId));
  if (!carrier) throw new AppError("not_found", CARRIER_MESSAGES.notFound);
  const oldCarrier = carrier.code;
  const newCarrier = r.newCarrierCode ?? oldCarrier;
  if (newCarrier !== oldCarrier) {
    await tx.update(carriers).set({ code: newCarrier }).where(eq(carriers.id, r.carrierId));
    // "OLD:svc" keys of consignments of this carrier's services become "NEW:svc"
    for (const key of KEY_COLUMNS) {
      const c = consignments[key];
      await tx
        .update(consignments)
        .set({ [key]: sql`${newCarrier} || substr(${c}, ${oldCarrier.length + 1})` })
        .where(and(ofCarrier(r.carrierId), sql`lower(${c}) like ${`${likeEscape(oldCarrier.toLowerCase())}:%`}`));
    }
  }
  if (r.serviceId === undefined || r.newServiceCode === undefined) return;
  const [service] = await tx.select({ code: services.code }).from(services).where(and(eq(services.id, r.serviceId), eq(services.carrierId, r.carrierId)));
  if (!service) throw new AppError("not_found", SERVICE_MESSAGES.notFound);
  const oldService = service.code;
  const newService = r.newServiceCode;
  if (newService === oldService) return;
  await tx.update(services).set({ code: newService }).where(eq(services.id, r.serviceId));
  // the service code inside the carrier's surcharge sets' lists, each element compared without case
  const codes = surchargeSets.serviceCodes;
  await tx
    .update(surchargeSets)
    .set({
      serviceCodes: sql`(select coalesce(jsonb_agg(case when lower(t.e) = lower(${oldService}) then to_jsonb(${newService}::text) else to_jsonb(t.e) end order by t.n), '[]'::jsonb)
        from jsonb_array_elements_text(${codes}) with ordinality as t(e, n))`,
    })
    .where(and(eq(surchargeSets.carrierId, r.carrierId), sql`exists (select 1 from jsonb_array_elements_text(${codes}) x where lower(x) = lower(${oldService}))`));
  for (const key of KEY_COLUMNS) {
    const c = consignments[key];
    await tx
      .update(consignments)
      .set({ [key]: sql`case when position(':' in ${c}) > 0 then ${`${newCarrier}:${newService}`} else ${newService} end` })
      .where(and(eq(consignments.serviceId, r.serviceId), or(sql`lower(${c}) = lower(${`${newCarrier}:${oldService}`})`, sql`lower(${c}) = lower(${oldService})`)));
  }
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * PUT /api/update_accounts_carrier_and_service_code/ { carrier_code, new_carrier_code?, service_code?,
 * new_service_code? }: the carrier (and one of its services) renamed everywhere, in one transaction.
 * A code already taken is a 400 on its field; an unknown carrier or service a 404.
 */
export async function renameCarrierAndServiceCode(db: DbOrTx, user: CurrentUser, raw: unknown) {
  assertCarrierAdmin(user);
  const input = parseFields(renameSchema, raw);
  const [carrier] = await db.select({ id: carriers.id }).from(carriers).where(sql`lower(${carriers.code}) = lower(${input.carrier_code})`);
  if (!carrier) throw new AppError("not_found", RENAME_MESSAGES.carrierUnknown);
  let serviceId: number | undefined;
  if (input.service_code) {
    const [service] = await db
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.carrierId, carrier.id), sql`lower(${services.code}) = lower(${input.service_code})`));
    if (!service) throw new AppError("not_found", RENAME_MESSAGES.serviceUnknown);
    serviceId = service.id;
  }
  const errors: Record<string, string[]> = {};
  if (input.new_carrier_code) {
    const [clash] = await db.select({ id: carriers.id }).from(carriers).where(and(sql`lower(${carriers.code}) = lower(${input.new_carrier_code})`, ne(carriers.id, carrier.id)));
    if (clash) errors.new_carrier_code = [CARRIER_MESSAGES.codeTaken];
  }
  if (input.new_service_code && serviceId !== undefined) {
    const [clash] = await db
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.carrierId, carrier.id), sql`lower(${services.code}) = lower(${input.new_service_code})`, ne(services.id, serviceId)));
    if (clash) errors.new_service_code = [SERVICE_MESSAGES.codeTaken];
  }
  if (Object.keys(errors).length) throw fieldErrors(errors);
  try {
    // one transaction: every table shows the old codes or every table the new ones, never a mix
    await db.transaction((tx) => renameCodes(tx, { carrierId: carrier.id, newCarrierCode: input.new_carrier_code, serviceId, newServiceCode: input.new_service_code }));
  } catch (error) {
    // a code taken between the check and the write: the unique indexes refuse, nothing is renamed
    if (sqlState(error) === "23505") throw fieldErrors({ [input.new_service_code ? "new_service_code" : "new_carrier_code"]: ["Code has already been taken"] });
    throw error;
  }
  const [after] = await db.select({ code: carriers.code }).from(carriers).where(eq(carriers.id, carrier.id));
  const [svc] = serviceId ? await db.select({ code: services.code }).from(services).where(eq(services.id, serviceId)) : [];
  return { carrier_id: carrier.id, carrier_code: after!.code, ...(svc ? { service_id: serviceId, service_code: svc.code } : {}) };
}
