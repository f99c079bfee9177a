/**
 * Carrier accounts administration (issue 16 item 3; spec 2 "Account"): the team view lists,
 * creates and changes the accounts of a customer's site. The carrier's account validations are
 * enforced on save; a range change never hands out a number already used (see `writeAccount`).
 */
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccountNotes, carrierAccountValidations, carrierAccounts, carriers, customers, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isSuperAdmin } from "../auth/roles";
import { remaining } from "../numbers/numbers.server";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import {
  ACCOUNT_MESSAGES,
  accountSchema,
  accountValidationErrors,
  belowCurrentMessage,
  overlapWarning,
  rangesOverlap,
  rangeWarnings,
  type AccountInput,
  type AccountValidation,
} from "./accounts";
import { siteOfCustomer } from "./sites.server";

type AccountRow = typeof carrierAccounts.$inferSelect;

export interface AccountNoteJson {
  id: number;
  text: string;
  created_by: string;
  created_at: string;
}

export type AccountJson = Omit<AccountInput, "notes_attributes" | "account_options"> & {
  id: number;
  site_id: number;
  carrier_id: number;
  carrier_name: string;
  service_name: string | null;
  consignment_current: number | null;
  manifest_current: number | null;
  sscc_current: number | null;
  remaining: { consignment: number; manifest: number; sscc: number };
  account_options: { auto_despatch: boolean };
  notes: AccountNoteJson[];
  warnings: string[];
};

const accountNotFound = () => new AppError("not_found", ACCOUNT_MESSAGES.notFound);
const orUndefined = <T>(v: T | null) => v ?? undefined;

/** Warnings: a range nearly (or wholly) used up, and a range sharing numbers with another account of the same carrier and prefix. */
async function warningsOf(db: DbOrTx, a: AccountRow): Promise<string[]> {
  const left = remaining(a);
  const out = rangeWarnings([
    { label: "Consignment number", start: a.consignmentRangeStart, end: a.consignmentRangeEnd, remaining: left.consignment },
    { label: "Manifest number", start: a.manifestRangeStart, end: a.manifestRangeEnd, remaining: left.manifest },
    { label: "SSCC", start: a.ssccRangeStart, end: a.ssccRangeEnd, remaining: left.sscc },
  ]);
  const others = await db
    .select({ account: carrierAccounts, siteCode: sites.code, customerCode: customers.code })
    .from(carrierAccounts)
    .innerJoin(sites, eq(sites.id, carrierAccounts.siteId))
    .innerJoin(customers, eq(customers.id, sites.customerId))
    .where(
      and(
        eq(carrierAccounts.carrierId, a.carrierId),
        ne(carrierAccounts.id, a.id),
        eq(carrierAccounts.active, true),
        sql`(${carrierAccounts.consignmentNumberPrefix} = ${a.consignmentNumberPrefix} or ${carrierAccounts.manifestNumberPrefix} = ${a.manifestNumberPrefix})`,
      ),
    )
    .orderBy(asc(carrierAccounts.id))
    .limit(200);
  for (const o of others) {
    const who = { accountNumber: o.account.accountNumber, siteCode: o.siteCode, customerCode: o.customerCode };
    if (o.account.consignmentNumberPrefix === a.consignmentNumberPrefix && rangesOverlap({ start: a.consignmentRangeStart, end: a.consignmentRangeEnd }, { start: o.account.consignmentRangeStart, end: o.account.consignmentRangeEnd })) {
      out.push(overlapWarning("Consignment number", who));
    }
    if (o.account.manifestNumberPrefix === a.manifestNumberPrefix && rangesOverlap({ start: a.manifestRangeStart, end: a.manifestRangeEnd }, { start: o.account.manifestRangeStart, end: o.account.manifestRangeEnd })) {
      out.push(overlapWarning("Manifest number", who));
    }
  }
  return out;
}

async function toJson(db: DbOrTx, a: AccountRow): Promise<AccountJson> {
  const [names] = await db
    .select({ carrierCode: carriers.code, carrierName: carriers.name, serviceCode: services.code, serviceName: services.name })
    .from(carriers)
    .leftJoin(services, and(eq(services.id, sql`${a.serviceId ?? null}::int`), eq(services.carrierId, carriers.id)))
    .where(eq(carriers.id, a.carrierId));
  const notes = await db.select().from(carrierAccountNotes).where(eq(carrierAccountNotes.carrierAccountId, a.id)).orderBy(desc(carrierAccountNotes.createdAt), desc(carrierAccountNotes.id));
  return {
    id: a.id,
    site_id: a.siteId,
    carrier_id: a.carrierId,
    carrier_code: names?.carrierCode ?? "",
    carrier_name: names?.carrierName ?? "",
    service_code: orUndefined(names?.serviceCode ?? null),
    service_name: names?.serviceName ?? null,
    account_number: a.accountNumber,
    carrier_customer_reference: orUndefined(a.carrierCustomerReference),
    support_email: orUndefined(a.supportEmail),
    booking_email: orUndefined(a.bookingEmail),
    managed_account: a.managedAccount,
    consignment_number_prefix: a.consignmentNumberPrefix,
    consignment_number_digits: a.consignmentNumberDigits,
    consignment_range_start: a.consignmentRangeStart,
    consignment_range_end: a.consignmentRangeEnd,
    consignment_current: a.consignmentCurrent,
    manifest_number_prefix: a.manifestNumberPrefix,
    manifest_number_digits: a.manifestNumberDigits,
    manifest_range_start: a.manifestRangeStart,
    manifest_range_end: a.manifestRangeEnd,
    manifest_current: a.manifestCurrent,
    sscc_prefix: orUndefined(a.ssccPrefix),
    sscc_digits: a.ssccDigits,
    sscc_range_start: orUndefined(a.ssccRangeStart),
    sscc_range_end: orUndefined(a.ssccRangeEnd),
    sscc_current: a.ssccCurrent,
    remaining: remaining(a),
    pickup_at: a.pickupAt,
    deliver_by: a.deliverBy,
    deliver_at: a.deliverAt,
    climbing_count_enabled: a.climbingCountEnabled,
    account_options: { auto_despatch: Boolean(a.options?.auto_despatch) },
    note: orUndefined(a.note),
    notes: notes.map((n) => ({ id: n.id, text: n.text, created_by: n.createdByName, created_at: n.createdAt.toISOString() })),
    warnings: await warningsOf(db, a),
  };
}

async function accountOfSite(db: DbOrTx, siteId: number, accountId: number): Promise<AccountRow> {
  const [a] = await db.select().from(carrierAccounts).where(and(eq(carrierAccounts.id, accountId), eq(carrierAccounts.siteId, siteId)));
  if (!a) throw accountNotFound();
  return a;
}

/** The staff check, the customer and the site of the path (404 when the site is not the customer's). */
async function scope(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number) {
  await customerForStaff(db, user, customerId);
  return siteOfCustomer(db, customerId, siteId);
}

export async function listAccountsForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number): Promise<{ accounts: AccountJson[] }> {
  await scope(db, user, customerId, siteId);
  const rows = await db.select().from(carrierAccounts).where(eq(carrierAccounts.siteId, siteId)).orderBy(asc(carrierAccounts.id));
  return { accounts: await Promise.all(rows.map((a) => toJson(db, a))) };
}

export async function getAccountForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number, accountId: number): Promise<AccountJson> {
  await scope(db, user, customerId, siteId);
  return toJson(db, await accountOfSite(db, siteId, accountId));
}

/** Carriers and their services, for the account screen's selects. */
export async function carrierChoices(db: DbOrTx) {
  const rows = await db.select({ id: carriers.id, code: carriers.code, name: carriers.name }).from(carriers).orderBy(asc(carriers.name));
  const svc = await db.select({ carrierId: services.carrierId, code: services.code, name: services.name }).from(services).orderBy(asc(services.name));
  return rows.map((c) => ({ ...c, services: svc.filter((s) => s.carrierId === c.id).map((s) => ({ code: s.code, name: s.name })) }));
}

const invalid = (errors: FieldErrors) => new AppError("invalid", ACCOUNT_MESSAGES.failed, errors);
const asObject = (raw: unknown): Record<string, unknown> => (raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {});

/**
 * The input checked, every field at once: the schema, the carrier and service, who may change
 * auto despatch, and the carrier's account validations. Any failure: 422 "There was an error
 * saving the Account." with the field errors.
 */
async function checkInput(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>, current: AccountRow | null) {
  const result = accountSchema.safeParse(raw);
  if (!result.success) throw invalid(fieldErrorsFrom(result.error));
  const input = result.data;
  const errors: FieldErrors = {};
  const [carrier] = await db.select().from(carriers).where(sql`lower(${carriers.code}) = lower(${input.carrier_code})`);
  if (!carrier) throw invalid({ carrier_code: [ACCOUNT_MESSAGES.carrierRequired] });
  let serviceId: number | null = null;
  if (input.service_code) {
    const [service] = await db.select({ id: services.id }).from(services).where(and(eq(services.carrierId, carrier.id), sql`lower(${services.code}) = lower(${input.service_code})`));
    if (service) serviceId = service.id;
    else errors.service_code = [ACCOUNT_MESSAGES.serviceUnknown];
  }
  const stored = Boolean(current?.options?.auto_despatch);
  const wanted = input.account_options.auto_despatch ?? stored;
  if (wanted !== stored && !isSuperAdmin(user)) throw new AppError("forbidden", ACCOUNT_MESSAGES.autoDespatch, { "account_options.auto_despatch": [ACCOUNT_MESSAGES.autoDespatch] });
  const validations = (await db.select().from(carrierAccountValidations).where(eq(carrierAccountValidations.carrierId, carrier.id))) as AccountValidation[];
  for (const [field, messages] of Object.entries(accountValidationErrors(input, validations))) (errors[field] ??= []).push(...messages);
  if (Object.keys(errors).length) throw invalid(errors);
  return { input, carrierId: carrier.id, serviceId, autoDespatch: wanted };
}

type Checked = Awaited<ReturnType<typeof checkInput>>;

/** Every column but the current values, which only allocation (and `writeAccount`) moves. */
function columns({ input, carrierId, serviceId, autoDespatch }: Checked) {
  return {
    carrierId,
    serviceId,
    accountNumber: input.account_number,
    carrierCustomerReference: input.carrier_customer_reference ?? null,
    supportEmail: input.support_email ?? null,
    bookingEmail: input.booking_email ?? null,
    managedAccount: input.managed_account,
    consignmentNumberPrefix: input.consignment_number_prefix ?? "",
    consignmentNumberDigits: input.consignment_number_digits,
    consignmentRangeStart: input.consignment_range_start,
    consignmentRangeEnd: input.consignment_range_end,
    manifestNumberPrefix: input.manifest_number_prefix ?? "",
    manifestNumberDigits: input.manifest_number_digits,
    manifestRangeStart: input.manifest_range_start,
    manifestRangeEnd: input.manifest_range_end,
    ssccPrefix: input.sscc_prefix ?? null,
    ssccDigits: input.sscc_digits,
    ssccRangeStart: input.sscc_range_start ?? null,
    ssccRangeEnd: input.sscc_range_end ?? null,
    pickupAt: input.pickup_at,
    deliverBy: input.deliver_by,
    deliverAt: input.deliver_at,
    climbingCountEnabled: input.climbing_count_enabled,
    options: { auto_despatch: autoDespatch },
    note: input.note ?? null,
  };
}

/**
 * The change as ONE UPDATE on the account row, so it serialises with allocation's
 * `UPDATE ... RETURNING` (numbers.server.ts) on the same row lock: each current value only moves
 * forward (to just before a raised start), and the row is only written while no current value is
 * past its new end. An allocation committed first is seen by the WHERE; one waiting behind this
 * update re-reads the new range. So no number is handed out twice and none outside the range.
 */
async function writeAccount(db: DbOrTx, id: number, checked: Checked): Promise<AccountRow | null> {
  const c = columns(checked);
  const [row] = await db
    .update(carrierAccounts)
    .set({
      ...c,
      consignmentCurrent: sql`case when ${carrierAccounts.consignmentCurrent} is null then null else greatest(${carrierAccounts.consignmentCurrent}, ${c.consignmentRangeStart - 1}::bigint) end`,
      manifestCurrent: sql`case when ${carrierAccounts.manifestCurrent} is null then null else greatest(${carrierAccounts.manifestCurrent}, ${c.manifestRangeStart - 1}::bigint) end`,
      ssccCurrent: sql`case when ${carrierAccounts.ssccCurrent} is null then null else greatest(${carrierAccounts.ssccCurrent}, ${(c.ssccRangeStart ?? 1) - 1}::bigint) end`,
    })
    .where(
      and(
        eq(carrierAccounts.id, id),
        sql`coalesce(${carrierAccounts.consignmentCurrent}, 0) <= ${c.consignmentRangeEnd}::bigint`,
        sql`coalesce(${carrierAccounts.manifestCurrent}, 0) <= ${c.manifestRangeEnd}::bigint`,
        sql`(${carrierAccounts.ssccCurrent} is null or ${c.ssccRangeEnd ?? null}::bigint is null or ${carrierAccounts.ssccCurrent} <= ${c.ssccRangeEnd ?? null}::bigint)`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Why `writeAccount` wrote nothing: the ranges whose new end is below numbers already used. */
function belowCurrentErrors(a: AccountRow, c: ReturnType<typeof columns>): FieldErrors {
  const errors: FieldErrors = {};
  if (a.consignmentCurrent != null && a.consignmentCurrent > c.consignmentRangeEnd) errors.consignment_range_end = [belowCurrentMessage(a.consignmentCurrent)];
  if (a.manifestCurrent != null && a.manifestCurrent > c.manifestRangeEnd) errors.manifest_range_end = [belowCurrentMessage(a.manifestCurrent)];
  if (a.ssccCurrent != null && c.ssccRangeEnd != null && a.ssccCurrent > c.ssccRangeEnd) errors.sscc_range_end = [belowCurrentMessage(a.ssccCurrent)];
  return errors;
}

async function addNotes(db: DbOrTx, user: CurrentUser, accountId: number, notes: Array<{ text: string }>) {
  if (!notes.length) return;
  await db.insert(carrierAccountNotes).values(notes.map((n) => ({ carrierAccountId: accountId, text: n.text, createdBy: user.id, createdByName: user.fullName })));
}

export async function createAccountForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number, raw: unknown): Promise<AccountJson> {
  await scope(db, user, customerId, siteId);
  const checked = await checkInput(db, user, asObject(raw), null);
  // the account and its first notes together: a refused note leaves no account behind
  const row = await db.transaction(async (tx) => {
    const [a] = await tx.insert(carrierAccounts).values({ siteId, ...columns(checked) }).returning();
    await addNotes(tx, user, a!.id, checked.input.notes_attributes);
    return a!;
  });
  return toJson(db, row);
}

/** Changes an account: the fields given replace its own; `notes_attributes` adds notes (never replaces them). */
export async function updateAccountForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number, accountId: number, raw: unknown): Promise<AccountJson> {
  await scope(db, user, customerId, siteId);
  const current = await accountOfSite(db, siteId, accountId);
  const stored = await toJson(db, current);
  const given = asObject(raw);
  const { notes: _n, warnings: _w, remaining: _r, ...editable } = stored;
  const merged = { ...editable, notes_attributes: [], ...given, account_options: { ...asObject(given.account_options) } };
  const checked = await checkInput(db, user, merged, current);
  const row = await db.transaction(async (tx) => {
    const written = await writeAccount(tx, accountId, checked);
    if (!written) {
      const [now] = await tx.select().from(carrierAccounts).where(eq(carrierAccounts.id, accountId));
      if (!now) throw accountNotFound();
      throw invalid(belowCurrentErrors(now, columns(checked)));
    }
    await addNotes(tx, user, accountId, checked.input.notes_attributes);
    return written;
  });
  return toJson(db, row);
}
