/**
 * Sites administration (issue 16 item 2; spec 2 "Site"): the team view (devs, super admin, admin,
 * customer service) lists, creates, changes and deletes a customer's sites. Every function checks
 * the role and that the site is the customer's, so the screens and /api share the rule.
 */
import { and, asc, count, eq, ilike, or } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignments, services, sites, users, type Country } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { CHOOSE_PLACE, resolveAddressPlace } from "../localities/resolve.server";
import { customerForStaff } from "../tenancy/customers.server";
import { startsWith } from "../localities/localities.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { sqlState } from "../../utils/http.server";
import { fieldErrorsFrom } from "../../utils/validation";
import { SITE_MESSAGES, siteSchema, type SiteInput } from "./sites";

type SiteRow = typeof sites.$inferSelect;

export interface SiteAccountSummary {
  id: number;
  account_number: string;
  carrier_code: string;
  carrier_name: string;
  service_code: string | null;
  service_name: string | null;
}

export interface SiteJson extends Omit<SiteInput, "billing_address"> {
  id: number;
  customer_id: number;
  active: boolean;
  billing_address: SiteInput["billing_address"] | null;
  accounts: SiteAccountSummary[];
}

const siteNotFound = () => new AppError("not_found", SITE_MESSAGES.notFound);
const orUndefined = <T>(v: T | null) => v ?? undefined;

function toJson(r: SiteRow, accounts: SiteAccountSummary[]): SiteJson {
  const options = (r.options ?? {}) as { different_billing_address?: boolean; placeholder_texts?: Record<string, string> };
  return {
    id: r.id,
    customer_id: r.customerId,
    code: r.code,
    name: r.name,
    address: {
      address_type: r.addressType === "residential" ? "residential" : "business",
      name: r.name,
      address_line_1: orUndefined(r.addressLine1),
      address_line_2: orUndefined(r.addressLine2),
      address_line_3: orUndefined(r.addressLine3),
      address_line_4: orUndefined(r.addressLine4),
      sublocality: orUndefined(r.sublocality),
      locality: orUndefined(r.locality),
      postcode: orUndefined(r.postcode),
      region: orUndefined(r.region),
      country: r.country as Country,
      phone: orUndefined(r.phone),
      email: orUndefined(r.email),
    },
    som: r.som,
    opening_time: orUndefined(r.openingTime),
    closing_time: orUndefined(r.closingTime),
    timezone: orUndefined(r.timezone),
    despatch_enabled: r.despatchEnabled,
    dg_contact_name: orUndefined(r.dgContactName),
    dg_contact_phone: orUndefined(r.dgContactPhone),
    cs_phone_number: orUndefined(r.csPhoneNumber),
    chep_account: orUndefined(r.chepAccount),
    loscam_account: orUndefined(r.loscamAccount),
    billing_address: (r.billingAddress as SiteInput["billing_address"]) ?? null,
    site_options: { different_billing_address: Boolean(options.different_billing_address), placeholder_texts: options.placeholder_texts ?? {} },
    active: r.active,
    accounts,
  };
}

/** The site of the customer, or 404 (another customer's site reads as missing). */
export async function siteOfCustomer(db: DbOrTx, customerId: number, siteId: number): Promise<SiteRow> {
  const [row] = await db.select().from(sites).where(and(eq(sites.id, siteId), eq(sites.customerId, customerId)));
  if (!row) throw siteNotFound();
  return row;
}

async function accountsOf(db: DbOrTx, siteId: number): Promise<SiteAccountSummary[]> {
  const rows = await db
    .select({ id: carrierAccounts.id, accountNumber: carrierAccounts.accountNumber, carrierCode: carriers.code, carrierName: carriers.name, serviceCode: services.code, serviceName: services.name })
    .from(carrierAccounts)
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .leftJoin(services, eq(services.id, carrierAccounts.serviceId))
    .where(eq(carrierAccounts.siteId, siteId))
    .orderBy(asc(carriers.name), asc(carrierAccounts.accountNumber));
  return rows.map((r) => ({ id: r.id, account_number: r.accountNumber, carrier_code: r.carrierCode, carrier_name: r.carrierName, service_code: r.serviceCode, service_name: r.serviceName }));
}

/** A customer's sites by code, those whose code or name starts with (or contains) the filter. */
export async function listSitesForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, filter?: string): Promise<{ sites: SiteJson[] }> {
  await customerForStaff(db, user, customerId);
  const f = (filter ?? "").trim();
  const like = `%${startsWith(f).slice(0, -1)}%`;
  const rows = await db
    .select()
    .from(sites)
    .where(and(eq(sites.customerId, customerId), f ? or(ilike(sites.code, like), ilike(sites.name, like)) : undefined))
    .orderBy(asc(sites.code));
  return { sites: rows.map((r) => toJson(r, [])) };
}

export async function getSiteForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number): Promise<SiteJson> {
  await customerForStaff(db, user, customerId);
  const row = await siteOfCustomer(db, customerId, siteId);
  return toJson(row, await accountsOf(db, siteId));
}

const asObject = (raw: unknown): Record<string, unknown> => (raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {});

/**
 * The input checked, every field at once (422 per field). The locality is looked up as on the
 * consignment screen: postcode and region come from the place found, never from what was typed.
 */
async function checkInput(db: DbOrTx, raw: Record<string, unknown>) {
  const result = siteSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  if (!result.success) throw new AppError("invalid", Object.values(errors)[0]?.[0] ?? SITE_MESSAGES.failed, errors);
  const input = result.data;
  const a = input.address;
  const place = await resolveAddressPlace(db, a);
  const locality = (message: string) => new AppError("invalid", message, { "address.locality": [message] });
  if (place.status !== "found") {
    throw locality(place.status === "blank" ? "Please enter a locality" : place.status === "choose" ? CHOOSE_PLACE : `No locality matches "${[a.locality, a.postcode].filter(Boolean).join(" ")}"`);
  }
  const p = place.address;
  return { ...input, address: { ...a, locality: p.locality, sublocality: p.sublocality ?? undefined, postcode: p.postcode, region: p.region ?? undefined } };
}

function columns(input: SiteInput) {
  const a = input.address;
  const billing = input.site_options.different_billing_address ? (input.billing_address ?? null) : null;
  return {
    code: input.code,
    name: input.name,
    addressType: a.address_type,
    addressLine1: a.address_line_1 ?? null,
    addressLine2: a.address_line_2 ?? null,
    addressLine3: a.address_line_3 ?? null,
    addressLine4: a.address_line_4 ?? null,
    sublocality: a.sublocality ?? null,
    locality: a.locality ?? null,
    postcode: a.postcode ?? null,
    region: a.region ?? null,
    country: a.country,
    phone: a.phone ?? null,
    email: a.email ?? null,
    som: input.som,
    openingTime: input.opening_time ?? null,
    closingTime: input.closing_time ?? null,
    timezone: input.timezone ?? null,
    despatchEnabled: input.despatch_enabled,
    dgContactName: input.dg_contact_name ?? null,
    dgContactPhone: input.dg_contact_phone ?? null,
    csPhoneNumber: input.cs_phone_number ?? null,
    chepAccount: input.chep_account ?? null,
    loscamAccount: input.loscam_account ?? null,
    billingAddress: billing,
    options: input.site_options,
    updatedAt: new Date(),
  };
}

/** The unique index on (customer, lower(code)) is the rule; its refusal reads as the code's field error. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (sqlState(e) === "23505") throw new AppError("invalid", SITE_MESSAGES.codeTaken, { code: [SITE_MESSAGES.codeTaken] });
    throw e;
  }
}

export async function createSiteForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<SiteJson> {
  await customerForStaff(db, user, customerId);
  const input = await checkInput(db, asObject(raw));
  const [row] = await writing(() => db.insert(sites).values({ customerId, ...columns(input) }).returning());
  return toJson(row!, []);
}

/** Changes a site: the fields given replace its own (the address and options key by key). */
export async function updateSiteForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number, raw: unknown): Promise<SiteJson> {
  await customerForStaff(db, user, customerId);
  const current = toJson(await siteOfCustomer(db, customerId, siteId), []);
  const given = asObject(raw);
  const merged = {
    ...current,
    ...given,
    address: { ...current.address, ...asObject(given.address) },
    site_options: { ...current.site_options, ...asObject(given.site_options) },
  };
  const input = await checkInput(db, merged);
  const [row] = await writing(() => db.update(sites).set(columns(input)).where(and(eq(sites.id, siteId), eq(sites.customerId, customerId))).returning());
  if (!row) throw siteNotFound();
  return toJson(row, await accountsOf(db, siteId));
}

/** Why a site may not go: what still uses it (consignments, carrier accounts, users' default site). */
async function usesOf(db: DbOrTx, siteId: number): Promise<string[]> {
  const n = async (q: Promise<Array<{ n: number }>>) => Number((await q)[0]?.n ?? 0);
  const [cons, accounts, defaults] = await Promise.all([
    n(db.select({ n: count() }).from(consignments).where(eq(consignments.siteId, siteId))),
    n(db.select({ n: count() }).from(carrierAccounts).where(eq(carrierAccounts.siteId, siteId))),
    n(db.select({ n: count() }).from(users).where(eq(users.defaultSiteId, siteId))),
  ]);
  const uses: string[] = [];
  if (cons) uses.push(`${cons} consignment${cons === 1 ? "" : "s"}`);
  if (accounts) uses.push(`${accounts} carrier account${accounts === 1 ? "" : "s"}`);
  if (defaults) uses.push(`${defaults} user${defaults === 1 ? "" : "s"} as default site`);
  return uses;
}

/**
 * Deletes a site nothing uses (a hard delete: an unused site leaves no history). A used site is
 * refused (409) with what uses it; a use not counted above is refused by its foreign key, said plainly.
 */
export async function deleteSiteForAdmin(db: DbOrTx, user: CurrentUser, customerId: number, siteId: number): Promise<{ id: number; deleted: true }> {
  await customerForStaff(db, user, customerId);
  // one transaction with the site row locked: a consignment or account created for the site
  // between the check and the delete waits for it, and then its foreign key fails instead
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: sites.id, code: sites.code }).from(sites).where(and(eq(sites.id, siteId), eq(sites.customerId, customerId))).for("update");
    if (!row) throw siteNotFound();
    const uses = await usesOf(tx, siteId);
    if (uses.length) {
      const message = `Site ${row.code} cannot be deleted: it is used by ${uses.join(", ")}.`;
      throw new AppError("conflict", message, { base: [message] });
    }
    try {
      await tx.delete(sites).where(eq(sites.id, siteId));
    } catch (e) {
      if (sqlState(e) !== "23503") throw e;
      const message = `Site ${row.code} cannot be deleted: other records (item types, recipients, services or rates) still use it.`;
      throw new AppError("conflict", message, { base: [message] });
    }
    return { id: siteId, deleted: true as const };
  });
}
